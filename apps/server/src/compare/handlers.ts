// compareCompanies (tag watch).
import type { LeaderboardOperations } from '@arl/contract';
import type { Handlers } from '../http/operations';
import type { LeaderboardService } from '../leaderboard/service';
import { compareCompanies } from './compare';

export function compareHandlers(leaderboard: LeaderboardService): Handlers<Pick<LeaderboardOperations, 'compareCompanies'>> {
  return {
    async compareCompanies({ query }) {
      return { status: 200, body: await compareCompanies(leaderboard, query.domains, query.community === 'include') };
    },
  };
}
