// Live progress of scans and journeys as Server-Sent Events.
import type { LeaderboardOperations } from '@arl/contract';
import { serviceUnavailable } from '../http/errors';
import type { Handlers } from '../http/operations';

type StreamOperations = Pick<LeaderboardOperations, 'streamScanEvents' | 'streamJourneyEvents'>;

export function streamHandlers(): Handlers<StreamOperations> {
  const unavailable = async (): Promise<never> => {
    throw serviceUnavailable('Live event streams are not served by this version yet; poll getScan or getJourney.');
  };
  return { streamScanEvents: unavailable, streamJourneyEvents: unavailable };
}
