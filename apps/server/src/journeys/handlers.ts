import type { LeaderboardOperations } from '@arl/contract';
import { notFound } from '../http/errors';
import type { Handlers } from '../http/operations';
import type { JourneyService } from './service';

type JourneyOperations = Pick<LeaderboardOperations, 'startJourney' | 'getJourney'>;

export function journeyHandlers(journeys: JourneyService): Handlers<JourneyOperations> {
  return {
    async startJourney({ path, query, body }) {
      const start = await journeys.start({ domain: path.domain, includeCommunity: query.community === 'include', task: body?.task });
      return { status: start.started ? 202 : 200, body: start };
    },
    async getJourney({ path }) {
      const journey = await journeys.read(path.journeyId);
      if (!journey) throw notFound(`No journey with id ${path.journeyId}.`);
      return { status: 200, body: journey };
    },
  };
}
