import type { LeaderboardOperations } from '@arl/contract';
import { badRequest, notFound } from '../http/errors';
import type { Handlers } from '../http/operations';
import { CursorError, type LeaderboardService } from './service';

type ReadOperations = Pick<LeaderboardOperations, 'listLeaderboard' | 'listCategories' | 'getCompany'>;

/** The handlers get the three reads they answer from, not the service's loading and change machinery. */
export type LeaderboardReads = Pick<LeaderboardService, 'list' | 'categories' | 'company'>;

export function leaderboardReadHandlers(service: LeaderboardReads): Handlers<ReadOperations> {
  return {
    async listLeaderboard({ query }) {
      try {
        return { status: 200, body: await service.list(query) };
      } catch (err) {
        if (err instanceof CursorError) throw badRequest(err.message, 'invalid_cursor');
        throw err;
      }
    },
    async listCategories() {
      return { status: 200, body: { items: await service.categories() } };
    },
    async getCompany({ path, query }) {
      const company = await service.company(path.domain, query.community === 'include');
      if (!company) throw notFound(`No company with domain ${JSON.stringify(path.domain)}.`);
      return { status: 200, body: company };
    },
  };
}
