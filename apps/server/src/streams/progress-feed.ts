// "Scan X or journey Y moved": a NOTIFY sent inside the writer's transaction, so listeners hear it once the change
// is committed and readable, in every process. PostgreSQL: a dedicated LISTEN connection (listen-connection.ts:
// reconnecting for as long as the process lives, then RESYNC to every listener); PGlite:
// the embedded database's own LISTEN (one process owns it). The change feed of changes.ts stays what it is (the
// leaderboard's data changed); progress is far more frequent and must not drop the ranked snapshot.
import { EventEmitter } from 'node:events';
import { listenEmbedded, type Db } from '@arl/db';
import type { Logger } from 'pino';
import type { Tx } from '../jobs/queue';
import { ListenConnection, type ListenStatus } from '../listen-connection';

export type ProgressTopic = `scan:${string}` | `journey:${string}`;

/** Every listener hears this after a reconnection, when notifications may have been missed. */
export const RESYNC = '*';
const ANY = Symbol('any topic');

// The channel is per schema (tests share one PostgreSQL database); identifiers are at most 63 bytes.
export const PROGRESS_CHANNEL_SQL = `left('arl_progress_' || lower(current_schema()), 63)`;

/** Call inside the transaction that writes the progress (or after an autocommitted write). */
export async function notifyProgress(tx: Pick<Tx, '$executeRawUnsafe'>, topic: ProgressTopic): Promise<void> {
  await tx.$executeRawUnsafe(`SELECT pg_notify(${PROGRESS_CHANNEL_SQL}, $1)`, topic);
}

export class ProgressFeed {
  private readonly emitter = new EventEmitter();
  private stopListening: (() => Promise<void>) | null = null;
  private connection: ListenConnection | null = null;
  private readonly startedAt = Date.now();

  private constructor(private readonly db: Db, private readonly logger: Logger) {
    this.emitter.setMaxListeners(0);
  }

  static async start(db: Db, logger: Logger): Promise<ProgressFeed> {
    const feed = new ProgressFeed(db, logger);
    const [{ channel }] = (await db.executeSql(`SELECT ${PROGRESS_CHANNEL_SQL} AS channel`)).rows as Array<{ channel: string }>;
    if (db.kind === 'pglite') feed.stopListening = await listenEmbedded(db, channel, (payload) => feed.emit(payload));
    else await feed.connect(channel);
    return feed;
  }

  /** Calls `listener` for each notification of `topic` (and on RESYNC); returns the unsubscribe function. */
  subscribe(topic: ProgressTopic, listener: () => void): () => void {
    this.emitter.on(topic, listener);
    this.emitter.on(RESYNC, listener);
    return () => {
      this.emitter.off(topic, listener);
      this.emitter.off(RESYNC, listener);
    };
  }

  /** Calls `listener` with the topic of every notification, and with RESYNC after a reconnection. */
  subscribeAll(listener: (topic: string) => void): () => void {
    this.emitter.on(ANY, listener);
    const resync = () => listener(RESYNC);
    this.emitter.on(RESYNC, resync);
    return () => {
      this.emitter.off(ANY, listener);
      this.emitter.off(RESYNC, resync);
    };
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
    await this.stopListening?.().catch(() => undefined);
    await this.connection?.close();
  }

  private emit(payload: string): void {
    if (payload.startsWith('scan:') || payload.startsWith('journey:')) {
      this.emitter.emit(payload);
      this.emitter.emit(ANY, payload);
    }
  }

  private async connect(channel: string): Promise<void> {
    this.connection = new ListenConnection({
      connectionString: this.db.connectionString!,
      channel,
      logger: this.logger,
      onPayload: (payload) => this.emit(payload),
      // Notifications sent while disconnected are lost: every listener reads its state again.
      onReconnected: async () => {
        this.emitter.emit(RESYNC);
      },
    });
    await this.connection.start();
  }

  /** Whether progress notifications are heard now (/metrics); always live on the embedded database. */
  status(): ListenStatus {
    return this.connection?.status() ?? { state: 'live', since: this.startedAt, reconnects: 0 };
  }
}
