// Live progress of scans and journeys as Server-Sent Events (the stream's life is in event-stream.ts).
import type { LeaderboardOperations } from '@arl/contract';
import type { Handlers } from '../http/operations';
import type { Runtime } from '../runtime';
import { journeySource, scanSource } from './sources';

type StreamOperations = Pick<LeaderboardOperations, 'streamScanEvents' | 'streamJourneyEvents'>;

export function streamHandlers(runtime: Runtime): Handlers<StreamOperations> {
  return {
    async streamScanEvents({ req, res, path }) {
      const source = scanSource(runtime.db, runtime.scans, path.scanId);
      const outcome = await runtime.streams.serve(req, res, source, req.get('last-event-id'));
      return outcome === 'ended' ? { status: 204 } : { status: 200, streamed: true };
    },
    async streamJourneyEvents({ req, res, path }) {
      const source = journeySource(runtime.journeys, path.journeyId);
      const outcome = await runtime.streams.serve(req, res, source, req.get('last-event-id'));
      return outcome === 'ended' ? { status: 204 } : { status: 200, streamed: true };
    },
  };
}
