// Ends scans the way a worker does when a scan finishes (apps/server/src/scans/scan-job.ts, `run` after the scanner
// returns, `commitEnding`): the outcome is committed by `endScan` in one transaction (checks, layers, the company's result, its score
// history, the scan's detail and `ended` event), then the end is told (`ScanEnded`: the company's new facts and detail) to the runtime's
// leaderboard, which applies it and publishes the facts on the change feed, what every leaderboard in every process hears. Only the scanner's own work is left out (a realistic result is
// reused: the sandbox personas' real scans, with a new score), and the job row's completion, which no read depends on.
//
// The scans it ends are prepared beforehand as `running` rows of existing companies (what a rescan looks like just
// before its end), outside any timed window.
import { randomUUID } from 'node:crypto';
import * as dgram from 'node:dgram';
import type { Runtime } from '@arl/server';
import { gradeFor, type ScanResult } from '@arl/scanner';
import { commitEnding } from '@arl/server/dist/scans/scan-job';
import { wallNow } from './live-figures';
import type { Change } from './probe';
import { benchDomain } from './seed-realistic';

/** A worker ends at most SCAN_CONCURRENCY scans at once (default 16): so does the writer when it falls behind. */
const MAX_IN_FLIGHT = 16;

interface Pending {
  scanId: string;
  domain: string;
  score: number;
}

export interface WriteFigures {
  /** Scans ended (committed and published). */
  ended: number;
  /** Time of each end: transaction, and transaction + publish (ms). */
  txMs: number[];
  endMs: number[];
  /** How late the writer started ends against its schedule (ms; > 0 when ends take longer than the interval). */
  maxLateMs: number;
  wallMs: number;
  /** Ends that failed, and the first failure's message. */
  errors: number;
  firstError?: string;
}

export class ScanEnder {
  private pending: Pending[] = [];
  private next = 0;
  private readonly socket = dgram.createSocket('udp4');

  constructor(
    private readonly runtime: Runtime,
    private readonly companies: number,
    private readonly templates: ScanResult[],
  ) {}

  /** Prepares `count` running scans of distinct companies spread over the population (after those already used). */
  async prepare(count: number): Promise<void> {
    const ids: string[] = [];
    const domains: string[] = [];
    for (let k = 0; k < count; k++, this.next++) {
      // A stride coprime with the population visits every company before any repeats.
      ids.push(randomUUID());
      domains.push(benchDomain((this.next * 104_729 + 17) % this.companies));
    }
    const db = this.runtime.db;
    await db.executeSql(
      `INSERT INTO scans (id, target, url, domain, kind, state, origin, attempts, company_id, created_at, started_at)
       SELECT u.id, 'https://'||c.domain||'/', 'https://'||c.domain||'/', c.domain, 'website', 'running', 'rescan', 1, c.id, now(), now()
       FROM unnest($1::uuid[], $2::text[]) AS u(id, domain) JOIN companies c ON c.domain = u.domain`,
      [ids, domains],
    );
    const { rows } = await db.executeSql('SELECT domain, score FROM companies WHERE domain = ANY($1::text[])', [domains]);
    const scores = new Map((rows as Array<{ domain: string; score: number }>).map((r) => [r.domain, Number(r.score)]));
    ids.forEach((scanId, k) => this.pending.push({ scanId, domain: domains[k], score: scores.get(domains[k]) ?? 0 }));
  }

  get prepared(): number {
    return this.pending.length;
  }

  /**
   * Ends one prepared scan with a score its company does not have; `onCommit` hears the change as soon as the
   * transaction commits (before the publish). Returns the change and the times it took.
   */
  async endOne(onCommit?: (change: Change) => void): Promise<{ change: Change; txMs: number; endMs: number }> {
    const p = this.pending.shift();
    if (!p) throw new Error('no prepared scan left to end');
    const score = (p.score + 37) % 101;
    const template = this.templates[p.score % this.templates.length];
    const outcome = { ...template, score, grade: gradeFor(score) };
    const started = performance.now();
    // The worker's own end of a scan (scan-job.ts commitEnding): the transaction, then the change published with
    // the company's new facts, which this process applies before the call returns and the others hear by NOTIFY.
    const rt = this.runtime;
    const deps = { db: rt.db, queue: rt.jobs, scanEnded: rt.scanEnded, clock: rt.clock, logger: rt.logger, publicUrl: rt.config.publicUrl, ranksIf: (facts: Parameters<typeof rt.leaderboard.ranksIf>[0]) => rt.leaderboard.ranksIf(facts) };
    let change: Change | null = null;
    let txMs = 0;
    const ended = await commitEnding(deps, p.scanId, outcome, undefined, () => {
      txMs = performance.now() - started;
      change = { domain: p.domain, score, committedAt: wallNow() };
      onCommit?.(change);
    });
    if (!ended?.scored || !change) throw new Error(`scan ${p.scanId} of ${p.domain} did not end scored`);
    return { change, txMs, endMs: performance.now() - started };
  }

  /**
   * Ends scans at `rate` per second for `ms` on a fixed schedule (an open loop: a slow end does not slow the ones
   * after it, up to MAX_IN_FLIGHT at once), telling the prober at `proberPort` of each commit.
   */
  async run(rate: number, ms: number, proberPort: number | null): Promise<WriteFigures> {
    const figures: WriteFigures = { ended: 0, txMs: [], endMs: [], maxLateMs: 0, wallMs: 0, errors: 0 };
    if (rate <= 0) return figures;
    const started = performance.now();
    const total = Math.floor((rate * ms) / 1000);
    const inFlight = new Set<Promise<void>>();
    const tell = (change: Change) => {
      if (proberPort !== null) this.socket.send(JSON.stringify(change), proberPort, '127.0.0.1');
    };
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
      figures.maxLateMs = Math.max(figures.maxLateMs, performance.now() - due);
      const end = this.endOne(tell).then(({ txMs, endMs }) => {
        figures.ended++;
        figures.txMs.push(txMs);
        figures.endMs.push(endMs);
      }, (err: unknown) => {
        figures.errors++;
        figures.firstError ??= err instanceof Error ? err.message : String(err);
      });
      inFlight.add(end);
      void end.finally(() => inFlight.delete(end));
    }
    await Promise.all([...inFlight]);
    figures.wallMs = performance.now() - started;
    return figures;
  }

  close(): void {
    this.socket.close();
  }
}
