import type { LeaderboardOperations } from '@arl/contract';
import { notImplemented } from '../http/errors';
import type { Handlers } from '../http/operations';

type JourneyOperations = Pick<LeaderboardOperations, 'startJourney' | 'getJourney'>;

export function journeyHandlers(): Handlers<JourneyOperations> {
  return {
    async startJourney() {
      throw notImplemented('Starting a journey');
    },
    async getJourney() {
      throw notImplemented('Reading a journey');
    },
  };
}
