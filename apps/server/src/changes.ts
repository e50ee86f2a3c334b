// "The data behind the leaderboard changed": published after a transaction that ends a scan commits, heard by
// every process so its ranked snapshot is rebuilt. Embedded mode has one process (PGlite cannot be shared), so an
// in-memory emitter is exact; with PostgreSQL every process LISTENs on one channel per schema.
import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Db } from '@arl/db';
import type { Logger } from 'pino';

export interface ChangeFeed {
  publish(): Promise<void>;
  subscribe(listener: () => void): () => void;
  close(): Promise<void>;
}

export class LocalChangeFeed implements ChangeFeed {
  private readonly emitter = new EventEmitter();
  async publish(): Promise<void> {
    this.emitter.emit('change');
  }
  subscribe(listener: () => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }
  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

export class PostgresChangeFeed extends LocalChangeFeed {
  private client: pg.Client | null = null;
  private closed = false;
  private readonly channel: string;

  constructor(private readonly db: Db, private readonly logger: Logger) {
    super();
    this.channel = `arl_changes_${db.schema}`.slice(0, 63);
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.db.connectionString! });
    client.on('notification', () => void super.publish());
    client.on('error', (err) => {
      this.logger.warn({ err }, 'change feed connection lost; reconnecting');
      this.client = null;
      // While disconnected a change may be missed: invalidate now and reconnect.
      void super.publish();
      if (!this.closed) setTimeout(() => void this.start().catch(() => undefined), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN "${this.channel}"`);
    this.client = client;
  }

  override async publish(): Promise<void> {
    await super.publish();
    await this.db.executeSql('SELECT pg_notify($1, $2)', [this.channel, '']);
  }

  override async close(): Promise<void> {
    this.closed = true;
    await super.close();
    await this.client?.end().catch(() => undefined);
  }
}

export async function createChangeFeed(db: Db, logger: Logger): Promise<ChangeFeed> {
  if (db.kind === 'pglite') return new LocalChangeFeed();
  const feed = new PostgresChangeFeed(db, logger);
  await feed.start();
  return feed;
}
