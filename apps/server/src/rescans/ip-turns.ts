// Politeness per server: scans of the census (origin `rescan`) start at least SCAN_IP_GAP apart on one IP address,
// across every worker process. Many sites share an address (a host, a CDN edge), and the registrable-domain rule of
// the scheduler does not see that.
//
// A scan takes its address's turn before it starts: one conditional statement on scan_ip_turns (ip, last_started_at)
// that moves last_started_at to now only if the previous start is at least the gap old. A scan that finds the turn
// taken waits (it stays `waiting`: delayed, not failed) for what is left of the gap and tries again, at most
// `maxWaitMs` in all; then it starts anyway, with a warning: one scan too close is better than one never run, and
// the job's deadline (60 s) must still hold the scan. The address is the first one the host resolves to, through the
// same lookup the scanner uses (the scanner resolves it again when it connects).
import { isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { Db } from '@arl/db';
import type { Logger } from 'pino';

export type AddressLookup = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

export interface IpTurnsOptions {
  db: Db;
  /** Minimum milliseconds between two scan starts on one address (SCAN_IP_GAP); 0 disables. */
  gapMs: number;
  /** Waited at most before starting anyway (default 20 s). */
  maxWaitMs?: number;
  /** Wall time: the gap is politeness toward a real server, not the service's business clock. */
  now?: () => Date;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  lookup?: AddressLookup;
  logger: Logger;
}

export interface TurnTaken {
  /** The address whose turn was taken; null when the host did not resolve (the scan will say so). */
  ip: string | null;
  /** Milliseconds waited for the turn. */
  waitedMs: number;
  /** Whether the wait ran out and the scan starts without its turn. */
  late: boolean;
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
  });

const defaultLookup: AddressLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })) as Array<{ address: string; family: 4 | 6 }>;

export class IpTurns {
  private readonly maxWaitMs: number;
  private readonly now: () => Date;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly lookup: AddressLookup;

  constructor(private readonly o: IpTurnsOptions) {
    this.maxWaitMs = o.maxWaitMs ?? 20_000;
    this.now = o.now ?? (() => new Date());
    this.sleep = o.sleep ?? defaultSleep;
    this.lookup = o.lookup ?? defaultLookup;
  }

  get enabled(): boolean {
    return this.o.gapMs > 0;
  }

  /** The address a URL's host resolves to first (an IP literal is itself); null when it does not resolve. */
  async addressOf(url: string): Promise<string | null> {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) return host;
    try {
      const [first] = await this.lookup(host);
      return first?.address ?? null;
    } catch {
      return null;
    }
  }

  /** Waits for the turn of `url`'s address, bounded by maxWaitMs and `signal`. */
  async take(url: string, signal?: AbortSignal): Promise<TurnTaken> {
    const ip = this.enabled ? await this.addressOf(url) : null;
    if (ip === null) return { ip, waitedMs: 0, late: false };
    return this.takeAddress(ip, signal);
  }

  async takeAddress(ip: string, signal?: AbortSignal): Promise<TurnTaken> {
    let waitedMs = 0;
    for (;;) {
      const left = await this.tryTake(ip);
      if (left === 0) return { ip, waitedMs, late: false };
      if (signal?.aborted) return { ip, waitedMs, late: true };
      if (waitedMs >= this.maxWaitMs) {
        await this.force(ip);
        this.o.logger.warn({ ip, waitedMs }, 'scan starts without waiting out SCAN_IP_GAP: its wait ran out');
        return { ip, waitedMs, late: true };
      }
      const pause = Math.max(1, Math.min(left, this.maxWaitMs - waitedMs));
      await this.sleep(pause, signal);
      waitedMs += pause;
    }
  }

  /** 0 when the turn is taken; else the milliseconds left before the address is free. */
  private async tryTake(ip: string): Promise<number> {
    const now = this.now();
    const { rows } = await this.o.db.executeSql(
      `WITH taken AS (
         INSERT INTO scan_ip_turns (ip, last_started_at) VALUES ($1, $2::timestamptz)
         ON CONFLICT (ip) DO UPDATE SET last_started_at = EXCLUDED.last_started_at
         WHERE scan_ip_turns.last_started_at <= EXCLUDED.last_started_at - make_interval(secs => $3::double precision / 1000)
         RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM taken) AS taken,
              (SELECT last_started_at FROM scan_ip_turns WHERE ip = $1) AS last_started_at`,
      [ip, now, this.o.gapMs],
    );
    const row = rows[0] as { taken: boolean; last_started_at: Date | string | null };
    if (row.taken) return 0;
    // The row read here is the one before this statement (a statement sees one snapshot): the other start.
    const last = row.last_started_at === null ? now.getTime() : new Date(row.last_started_at).getTime();
    return Math.max(1, last + this.o.gapMs - now.getTime());
  }

  private async force(ip: string): Promise<void> {
    await this.o.db.executeSql(
      `INSERT INTO scan_ip_turns (ip, last_started_at) VALUES ($1, $2::timestamptz)
       ON CONFLICT (ip) DO UPDATE SET last_started_at = GREATEST(scan_ip_turns.last_started_at, EXCLUDED.last_started_at)`,
      [ip, this.now()],
    );
  }
}
