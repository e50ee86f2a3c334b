// GET /v1/leaderboard/coverage (extension): how far the scans of the seeded companies have got, so an empty
// leaderboard can say why it is empty.
import type { LeaderboardOperations } from '@arl/contract';
import type { Db } from '@arl/db';
import type { Handlers } from '../http/operations';
import { CoverageRepository } from './repository';

export function coverageHandlers(db: Db): Handlers<Pick<LeaderboardOperations, 'getCoverage'>> {
  const repository = new CoverageRepository(db);
  return {
    async getCoverage() {
      const [counts, causes] = await Promise.all([repository.counts(), repository.causes(5)]);
      return { status: 200, body: { ...counts, causes } };
    },
  };
}
