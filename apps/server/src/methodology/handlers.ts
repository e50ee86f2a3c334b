// GET /v1/leaderboard/methodology: computed once per process (the catalog is code, it changes with a deploy).
import type { LeaderboardOperations } from '@arl/contract';
import type { Handlers } from '../http/operations';
import { buildMethodology } from './methodology';

export function methodologyHandlers(): Handlers<Pick<LeaderboardOperations, 'getMethodology'>> {
  const methodology = buildMethodology();
  return {
    async getMethodology() {
      return { status: 200, body: methodology };
    },
  };
}
