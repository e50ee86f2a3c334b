// getCheckHistory and listCheckChanges (tag watch): how a company's checks moved across its scored scans.
import type { LeaderboardOperations, LeaderboardSchemas } from '@arl/contract';
import type { Db } from '@arl/db';
import { badRequest, notFound } from '../http/errors';
import type { Handlers } from '../http/operations';
import { CheckHistoryRepository } from './repository';

type Status = LeaderboardSchemas['CheckStatus'];
type Layer = LeaderboardSchemas['LayerId'];

export const MAX_CHANGES = 500;
const DAY_MS = 86_400_000;

export function checkHistoryHandlers(db: Db, clock: () => Date): Handlers<Pick<LeaderboardOperations, 'getCheckHistory' | 'listCheckChanges'>> {
  const repository = new CheckHistoryRepository(db);
  const visible = async (domain: string, community: boolean) => {
    const company = await repository.company(domain);
    if (!company || (company.source === 'community' && !community)) throw notFound(`No company with domain ${JSON.stringify(domain)}.`);
    return company;
  };
  return {
    async getCheckHistory({ path, query }) {
      const company = await visible(path.domain, query.community === 'include');
      const limit = query.limit ?? 20;
      const before = query.cursor === undefined ? null : decodeCursor(query.cursor);
      const [changes, current] = await Promise.all([
        repository.changesOf(company.id, path.checkId, limit + 1, before),
        before ? Promise.resolve(null) : repository.current(company.id, path.checkId),
      ]);
      const page = changes.slice(0, limit);
      const last = page[page.length - 1];
      // `since`: when the latest change (to the current status) happened; on later pages the first page said it.
      const latest = before ? null : changes[0];
      return {
        status: 200,
        body: {
          domain: company.domain,
          checkId: path.checkId,
          name: current?.name ?? page[0]?.name ?? null,
          current: current && latest ? { status: current.status as Status, since: latest.at.toISOString() } : null,
          items: page.map((c) => ({ at: c.at.toISOString(), scanId: c.scanId, from: c.from as Status | null, to: c.to as Status })),
          nextCursor: changes.length > limit && last ? Buffer.from(`${last.at.toISOString()}|${last.scanId}`).toString('base64url') : null,
        },
      };
    },
    async listCheckChanges({ path, query }) {
      const company = await visible(path.domain, query.community === 'include');
      const days = query.days ?? 7;
      const changes = await repository.changesSince(company.id, new Date(clock().getTime() - days * DAY_MS), MAX_CHANGES);
      return {
        status: 200,
        body: {
          domain: company.domain,
          days,
          items: changes.map((c) => ({
            checkId: c.checkId, name: c.name, layer: c.layer as Layer, at: c.at.toISOString(), scanId: c.scanId,
            from: c.from as Status, to: c.to as Status, earnedChange: c.earnedChange,
          })),
        },
      };
    },
  };
}

function decodeCursor(cursor: string): { at: string; scanId: string } {
  const [at, scanId] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !scanId || Number.isNaN(Date.parse(at)) || !/^[0-9a-f-]{36}$/.test(scanId)) throw badRequest('The cursor is not one this service gave.', 'invalid_cursor');
  return { at, scanId };
}
