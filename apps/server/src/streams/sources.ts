// What the scan and journey streams send, read from what the pipelines store. Scans: each row of scan_events is a
// `step` (its id is the event id), and `scan` (the getScan view) ends the stream. Journeys: `state` whenever the
// state changes (no id: re-sent on resume), each step a `step` numbered from 1, and `journey` (the getJourney view)
// ends the stream.
import type { Db } from '@arl/db';
import type { JourneyService } from '../journeys/service';
import type { ScanService } from '../scans/service';
import type { StreamEvent, StreamFrame, StreamSource } from './event-stream';

const PAGE = 1000;

export function scanSource(db: Db, scans: ScanService, scanId: string): StreamSource {
  return {
    topic: `scan:${scanId}`,
    missing: `No scan has the id ${scanId}.`,
    async read(afterId): Promise<StreamFrame | null> {
      // The state first: when it says ended, every event (the last one is written with it) is already committed.
      const scan = await db.prisma.scan.findUnique({ where: { id: scanId }, select: { state: true } });
      if (!scan) return null;
      const rows = await db.prisma.scanEvent.findMany({
        where: { scanId, id: { gt: BigInt(afterId) } },
        orderBy: { id: 'asc' },
        take: PAGE,
        select: { id: true, step: true, at: true },
      });
      const events: StreamEvent[] = rows.map((r) => ({ id: Number(r.id), event: 'step', data: { step: r.step, at: r.at.toISOString() } }));
      const lastId = Math.max(afterId, events.at(-1)?.id ?? 0);
      const ended = scan.state === 'ended' && rows.length < PAGE;
      const view = ended ? await scans.read(scanId) : null;
      return { events, lastId, final: view ? { event: 'scan', data: view } : null };
    },
  };
}

export function journeySource(journeys: JourneyService, journeyId: string): StreamSource {
  let sentState: string | null = null;
  return {
    topic: `journey:${journeyId}`,
    missing: `No journey has the id ${journeyId}.`,
    async read(afterId): Promise<StreamFrame | null> {
      const journey = await journeys.read(journeyId);
      if (!journey) return null;
      const events: StreamEvent[] = [];
      if (journey.state !== sentState) {
        events.push({ event: 'state', data: { state: journey.state } });
        sentState = journey.state;
      }
      journey.steps.forEach((step, index) => {
        if (index + 1 > afterId) events.push({ id: index + 1, event: 'step', data: step });
      });
      const lastId = Math.max(afterId, journey.steps.length);
      return { events, lastId, final: journey.state === 'ended' ? { event: 'journey', data: journey } : null };
    },
  };
}
