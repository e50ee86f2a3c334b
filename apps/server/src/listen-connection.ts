// One PostgreSQL LISTEN connection that stays up for as long as the process lives: whatever PostgreSQL does (a
// restart, a failover, the backend terminated, the network cut), it reconnects with a capped backoff, LISTENs again
// and runs the owner's catch-up before it calls itself live again. Notifications sent while it was down are lost
// (PostgreSQL keeps none for an absent listener): the catch-up is how the owner finds what they said.
//
// A dedicated pg.Client, not the pool: a pooled connection is handed to other queries and its LISTEN goes with it.
// A heartbeat query on the connection notices a connection that died silently (no FIN, no RST), which neither the
// socket nor pg would report for hours.
import pg from 'pg';
import type { Logger } from 'pino';

export type ListenState = 'connecting' | 'catching-up' | 'live' | 'down' | 'closed';

export interface ListenStatus {
  state: ListenState;
  /** Since when (ms since the epoch) the connection is in this state. */
  since: number;
  /** Connections made again after a loss, since start. */
  reconnects: number;
}

export interface ListenOptions {
  connectionString: string;
  channel: string;
  logger: Logger;
  onPayload(payload: string): void;
  /** After every reconnection, before the connection is live: find what was missed. Retried until it resolves. */
  onReconnected?(): Promise<unknown>;
  /** First retry delay; doubled per failure up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** How often the connection is proven alive with a query (and how long that query may take). */
  heartbeatMs?: number;
}

export class ListenConnection {
  private client: pg.Client | null = null;
  private current: ListenStatus = { state: 'connecting', since: Date.now(), reconnects: 0 };
  private retrying = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly heartbeatMs: number;

  constructor(private readonly options: ListenOptions) {
    this.initialDelayMs = options.initialDelayMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 5_000;
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
  }

  /** The first connection: rejects when PostgreSQL does not answer (start-up fails loudly instead of waiting). */
  async start(): Promise<void> {
    await this.connect();
    this.enter('live');
  }

  status(): ListenStatus {
    return { ...this.current };
  }

  async close(): Promise<void> {
    this.enter('closed');
    if (this.heartbeat) clearInterval(this.heartbeat);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private closed(): boolean {
    return this.current.state === 'closed';
  }

  private enter(state: ListenState): void {
    if (this.closed() || this.current.state === state) return;
    this.current = { ...this.current, state, since: Date.now() };
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      // Named in pg_stat_activity, so an operator can tell the feeds' sessions apart (and a test can end them).
      application_name: `arl-listen ${this.options.channel}`.slice(0, 63),
      keepAlive: true,
      connectionTimeoutMillis: this.heartbeatMs,
      query_timeout: this.heartbeatMs,
    });
    client.on('notification', (msg) => this.options.onPayload(msg.payload ?? ''));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.options.channel}"`);
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed()) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      if (this.client !== client) return;
      client.query('SELECT 1').catch((err: unknown) => this.lost(client, err));
    }, this.heartbeatMs);
    this.heartbeat.unref();
  }

  private lost(client: pg.Client, err: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    void client.end().catch(() => undefined);
    if (this.closed()) return;
    this.options.logger.warn({ err, channel: this.options.channel }, 'LISTEN connection lost; reconnecting');
    this.enter('down');
    void this.reconnect();
  }

  /** Tries again with a capped backoff until connected and caught up, or closed. One loop at a time. */
  private async reconnect(): Promise<void> {
    if (this.retrying) return;
    this.retrying = true;
    let delay = this.initialDelayMs;
    const wait = async () => {
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      delay = Math.min(delay * 2, this.maxDelayMs);
    };
    try {
      while (!this.closed() && !this.client) {
        await wait();
        if (this.closed()) return;
        try {
          await this.connect();
        } catch (err) {
          this.options.logger.debug({ err, channel: this.options.channel }, 'LISTEN reconnection failed; retrying');
          continue;
        }
        this.current.reconnects++;
        this.enter('catching-up');
        delay = this.initialDelayMs;
        // Notifications are heard again from here on; what was said while down is read by the catch-up.
        while (this.client && this.current.state === 'catching-up') {
          try {
            await this.options.onReconnected?.();
            if (this.client) this.enter('live');
          } catch (err) {
            this.options.logger.warn({ err, channel: this.options.channel }, 'catch-up after reconnection failed; retrying');
            await wait();
          }
        }
        if (this.client) this.options.logger.info({ channel: this.options.channel, reconnects: this.current.reconnects }, 'LISTEN connection live again');
      }
    } finally {
      this.retrying = false;
    }
    // Lost again while catching up: go on trying.
    if (!this.client && !this.closed()) void this.reconnect();
  }
}
