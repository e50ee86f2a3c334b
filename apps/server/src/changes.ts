// "The data behind the leaderboard changed", and what changed: published right after a transaction that ends a scan
// commits, heard by every process so its live index (leaderboard/live-index.ts) applies the same change in place.
// Embedded mode has one process (PGlite cannot be shared), so an in-memory emitter is exact; with PostgreSQL every
// process LISTENs on one channel per schema and the NOTIFY payload carries the change. The LISTEN connection
// reconnects for as long as the process lives (listen-connection.ts); a notification lost meanwhile, or never sent,
// is found by the leaderboard's catch-up from the change versions the database keeps (leaderboard/catch-up.ts).
import { randomUUID } from 'node:crypto';
import type { Db } from '@arl/db';
import type { Logger } from 'pino';
import type { CompanyFacts } from './leaderboard/live-index';
import { ListenConnection, type ListenStatus } from './listen-connection';

export type LeaderboardChange =
  /** These companies now have these facts (a scan's end: read in its transaction). */
  | { kind: 'companies'; companies: CompanyFacts[] }
  /** These companies changed: read their rows (a category change; facts too long for a notification). */
  | { kind: 'ids'; ids: string[] }
  /** Something changed that nobody described (tools and tests writing to the database): rebuild before the next read. */
  | { kind: 'reload' }
  /**
   * Changes may have been missed (the notification connection was lost and is back): catch up on what the database
   * holds (leaderboard/catch-up.ts). The feed is live again once every listener's promise resolved.
   */
  | { kind: 'resync' };

export type ChangeListener = (change: LeaderboardChange) => void | Promise<void>;

export interface ChangeFeed {
  /**
   * Applies the change in this process (the listeners run before this returns), then tells the others. `from`: the
   * listener that has applied it already (the leaderboard, told of a scan's end directly) is not told again.
   */
  publish(change?: LeaderboardChange, from?: ChangeListener): Promise<void>;
  subscribe(listener: ChangeListener): () => void;
  /** Whether this process hears changes now (readiness, /metrics). */
  status(): ListenStatus;
  close(): Promise<void>;
}

export class LocalChangeFeed implements ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();
  private readonly startedAt = Date.now();

  async publish(change: LeaderboardChange = { kind: 'reload' }, from?: ChangeListener): Promise<void> {
    await this.deliver(change, from);
  }

  /** Runs every listener (but `skip`); a synchronous listener has finished when this returns its promise. */
  protected deliver(change: LeaderboardChange, skip?: ChangeListener): Promise<unknown> {
    return Promise.all([...this.listeners].map((listener) => (listener === skip ? undefined : listener(change))));
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** In one process every change is delivered in place: always live. */
  status(): ListenStatus {
    return { state: 'live', since: this.startedAt, reconnects: 0 };
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}

/** NOTIFY payloads must stay under 8,000 bytes; a change that does not fit is sent as ids (the receiver reads them). */
const MAX_PAYLOAD = 7_500;

interface Wire {
  /** The publishing feed: a process skips its own notifications (it applied the change when publishing). */
  o: string;
  c: LeaderboardChange;
}

export class PostgresChangeFeed extends LocalChangeFeed {
  private readonly connection: ListenConnection;
  private readonly channel: string;
  private readonly origin = randomUUID();

  constructor(private readonly db: Db, private readonly logger: Logger) {
    super();
    this.channel = `arl_changes_${db.schema}`.slice(0, 63);
    this.connection = new ListenConnection({
      connectionString: db.connectionString!,
      channel: this.channel,
      logger,
      onPayload: (payload) => this.receive(payload),
      // Changes may have been missed while disconnected: every listener catches up before the feed is live again.
      onReconnected: () => this.deliver({ kind: 'resync' }),
    });
  }

  start(): Promise<void> {
    return this.connection.start();
  }

  override status(): ListenStatus {
    return this.connection.status();
  }

  private receive(payload: string | undefined): void {
    let wire: Wire;
    try {
      wire = JSON.parse(payload ?? '') as Wire;
    } catch {
      wire = { o: '', c: { kind: 'reload' } }; // an unknown sender: treat as an undescribed change
    }
    if (wire.o === this.origin) return;
    void Promise.resolve(this.deliver(wire.c)).catch((err) => this.logger.warn({ err }, 'could not apply a change'));
  }

  override async publish(change: LeaderboardChange = { kind: 'reload' }, from?: ChangeListener): Promise<void> {
    await super.publish(change, from);
    let payload = JSON.stringify({ o: this.origin, c: change } satisfies Wire);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD && change.kind === 'companies') {
      payload = JSON.stringify({ o: this.origin, c: { kind: 'ids', ids: change.companies.map((c) => c.id) } } satisfies Wire);
    }
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) payload = JSON.stringify({ o: this.origin, c: { kind: 'resync' } } satisfies Wire);
    await this.db.executeSql('SELECT pg_notify($1, $2)', [this.channel, payload]);
  }

  override async close(): Promise<void> {
    await super.close();
    await this.connection.close();
  }
}

export async function createChangeFeed(db: Db, logger: Logger): Promise<ChangeFeed> {
  if (db.kind === 'pglite') return new LocalChangeFeed();
  const feed = new PostgresChangeFeed(db, logger);
  await feed.start();
  return feed;
}
