// One module owns the life of every Server-Sent Events stream: limits (per client and in total), the replay from
// Last-Event-ID, live updates on progress notifications, heartbeats, a bounded lifetime, and closing on shutdown.
// better-sse writes the wire format; what to send comes from a StreamSource (scans, journeys).
import type { Request, Response } from 'express';
import { createSession, type Session } from 'better-sse';
import type { Logger } from 'pino';
import { ApiError, notFound, rateLimited, serviceUnavailable } from '../http/errors';
import type { ProgressFeed, ProgressTopic } from './progress-feed';

export interface StreamEvent {
  /** Sent as the SSE `id` (what Last-Event-ID resumes after); absent for state events that are re-sent on resume. */
  id?: number;
  event: string;
  data: unknown;
}

export interface StreamFrame {
  /** Events after the given id, in order. */
  events: StreamEvent[];
  /** The last event, present once the thing has ended: the stream closes after it. */
  final: StreamEvent | null;
  /** The id of the last event that exists (0 when none). */
  lastId: number;
}

export interface StreamSource {
  topic: ProgressTopic;
  /** Null when the thing does not exist. `previous` is the last frame sent (null on the first read). */
  read(afterId: number, previous: StreamFrame | null): Promise<StreamFrame | null>;
  /** What an unknown id answers. */
  missing: string;
}

export interface StreamLimits {
  perClient: number;
  total: number;
  heartbeatMs: number;
  /** A stream is closed after this long; an EventSource reconnects with Last-Event-ID and carries on. */
  maxLifetimeMs: number;
  /** Reads again this often even without a notification (a notification lost with a dropped connection). */
  recheckMs: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  perClient: 10,
  total: 1000,
  heartbeatMs: 15_000,
  maxLifetimeMs: 10 * 60_000,
  recheckMs: 15_000,
};

export class EventStreams {
  private readonly open = new Set<Response>();
  private readonly perClient = new Map<string, number>();
  private closing = false;

  constructor(
    private readonly feed: ProgressFeed,
    private readonly logger: Logger,
    private readonly limits: StreamLimits = DEFAULT_STREAM_LIMITS,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /**
   * Answers the request with the stream (200), 204 when it ended and the client has seen everything, or throws the
   * contract's errors (404, 429, 503) before anything is written.
   */
  async serve(req: Request, res: Response, source: StreamSource, lastEventId: string | undefined): Promise<'streamed' | 'ended'> {
    if (this.closing) throw serviceUnavailable('The server is shutting down; reconnect in a moment.', 'service_unavailable', 5);
    const client = req.ip ?? 'unknown';
    if ((this.perClient.get(client) ?? 0) >= this.limits.perClient) {
      throw rateLimited(5, `At most ${this.limits.perClient} event streams may be open per client.`);
    }
    if (this.open.size >= this.limits.total) throw serviceUnavailable('Too many event streams are open; try again shortly.', 'service_unavailable', 5);

    let afterId = lastEventId ? Number(lastEventId) : 0;
    // Subscribe before the first read, so a change committed in between is not missed.
    let wake: (() => void) | null = null;
    const unsubscribe = this.feed.subscribe(source.topic, () => wake?.());
    let first: StreamFrame | null;
    try {
      first = await source.read(afterId, null);
    } catch (err) {
      unsubscribe();
      throw err;
    }
    if (!first) {
      unsubscribe();
      throw notFound(source.missing);
    }
    // Reconnecting after the end, with nothing new: 204 tells an EventSource to stop reconnecting.
    if (first.final && lastEventId !== undefined && afterId >= first.lastId && !first.events.some((e) => e.id !== undefined)) {
      unsubscribe();
      return 'ended';
    }

    this.track(res, client, +1);
    let session: Session;
    try {
      session = await createSession(req, res, { keepAlive: this.limits.heartbeatMs, retry: 2000, trustClientEventId: false });
    } catch (err) {
      this.track(res, client, -1);
      unsubscribe();
      throw err instanceof ApiError ? err : serviceUnavailable('The event stream could not be opened.');
    }

    let previous: StreamFrame | null = null;
    let running = false;
    let again = false;
    let done = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = () => {
      if (done) return;
      done = true;
      unsubscribe();
      for (const t of timers) clearTimeout(t);
      this.track(res, client, -1);
      if (!res.writableEnded) res.end();
    };
    res.on('close', finish);

    const send = async (frame: StreamFrame) => {
      await session.batch((buffer) => {
        for (const e of frame.events) {
          if (e.id !== undefined) buffer.id(String(e.id));
          buffer.event(e.event).data(e.data).dispatch();
        }
        if (frame.final) buffer.event(frame.final.event).data(frame.final.data).dispatch();
      });
      for (const e of frame.events) if (e.id !== undefined) afterId = Math.max(afterId, e.id);
      previous = frame;
      if (frame.final) finish();
    };
    // Reads are serialized: a notification during a read schedules one more read after it.
    const pump = async (frame?: StreamFrame | null) => {
      if (done) return;
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          const next = frame ?? (await source.read(afterId, previous));
          frame = undefined;
          if (!next) return finish();
          if (next.events.length > 0 || next.final) await send(next);
        } while (again && !done);
      } catch (err) {
        this.logger.warn({ err, topic: source.topic }, 'event stream failed; closing it');
        finish();
      } finally {
        running = false;
      }
    };
    wake = () => void pump();
    timers.push(setTimeout(finish, this.limits.maxLifetimeMs));
    const recheck = () => {
      if (done) return;
      void pump();
      timers.push(setTimeout(recheck, this.limits.recheckMs));
    };
    timers.push(setTimeout(recheck, this.limits.recheckMs));
    await pump(first);
    return 'streamed';
  }

  /** Shutdown: refuse new streams and end the open ones (clients reconnect elsewhere with Last-Event-ID). */
  closeAll(): void {
    this.closing = true;
    for (const res of [...this.open]) res.end();
  }

  private track(res: Response, client: string, delta: 1 | -1): void {
    if (delta > 0) this.open.add(res);
    else if (!this.open.delete(res)) return;
    const count = (this.perClient.get(client) ?? 0) + delta;
    if (count <= 0) this.perClient.delete(client);
    else this.perClient.set(client, count);
  }
}
