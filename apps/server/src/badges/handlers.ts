// getCompanyBadge (tag watch). The badge follows the company's latest scored scan: its ETag and Last-Modified change
// when a scan scores the company, a matching If-None-Match answers 304, and shared caches may keep it 5 minutes.
// An unknown or unscored company gets the neutral badge (200): an <img> in someone's README never breaks.
import type { LeaderboardOperations } from '@arl/contract';
import type { Handlers } from '../http/operations';
import type { LeaderboardService } from '../leaderboard/service';
import { renderBadge } from './badge';

const CACHE = 'public, max-age=300';

export function badgeHandlers(leaderboard: LeaderboardService): Handlers<Pick<LeaderboardOperations, 'getCompanyBadge'>> {
  return {
    async getCompanyBadge({ req, path, query }) {
      const company = await leaderboard.company(path.domain, query.community === 'include');
      const scored = company && company.score !== null && company.grade !== null && company.scannedAt !== null ? company : null;
      const domain = company?.domain ?? path.domain.toLowerCase();
      const etag = scored ? `"${Date.parse(scored.scannedAt!).toString(36)}-${scored.score}-${scored.grade}"` : '"not-scanned"';
      const headers: Record<string, string> = { ETag: etag, 'Cache-Control': CACHE, Vary: 'Accept-Encoding' };
      if (scored) headers['Last-Modified'] = new Date(scored.scannedAt!).toUTCString();
      const given = req.headers['if-none-match'];
      if (given && given.split(',').map((t) => t.trim().replace(/^W\//, '')).includes(etag)) return { status: 304, headers };
      const svg = renderBadge(scored ? { score: scored.score!, grade: scored.grade! } : null, domain);
      return { status: 200, text: svg, type: 'image/svg+xml', headers };
    },
  };
}
