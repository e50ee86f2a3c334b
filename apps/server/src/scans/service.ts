// Submitting and reading scans. The join is atomic in the database: a scan row claims its target through the unique
// `active_target` column (INSERT ... ON CONFLICT DO NOTHING), so concurrent submissions of one target, in any
// number of processes, produce exactly one scan and everyone else joins it.
//
// Every start a client asks for (POST /v1/leaderboard/scans, the MCP tool start_scan, the pages' forms through
// them, and disputes) is first counted by `admit` against SCAN_RATE_LIMIT, per client address: one limiter per
// process, so the two hosts share the count (and with PostgreSQL, every process does). The scheduler's rescans and
// the demo start scans of their own and are bounded by their own budgets.
import { randomUUID } from 'node:crypto';
import type { Db } from '@arl/db';
import type { LeaderboardSchemas } from '@arl/contract';
import { checkScannableUrl, type FetchPolicy } from '@arl/scanner';
import { ApiError, serviceUnavailable } from '../http/errors';
import type { RateLimiter } from '../http/rate-limit';
import type { JobQueue, Tx } from '../jobs/queue';
import { appendEvent } from './events';
import { SCAN_JOB, type ScanJobPayload } from './scan-job';
import { normalizeTarget, type ScanTarget } from './target';
import type { ScanViewCache } from './view-cache';

type Scan = LeaderboardSchemas['Scan'];
type ScanStart = LeaderboardSchemas['ScanStart'];
export type ScanOrigin = 'api' | 'rescan' | 'demo' | 'dispute';

export interface ScanServiceDeps {
  db: Db;
  queue: JobQueue;
  clock: () => Date;
  fetchPolicy: Partial<FetchPolicy>;
  queueLimit: number;
  /** Operation 6's views kept between changes (view-cache.ts); none: every read goes to the database. */
  views?: ScanViewCache;
  /** Starts asked for by clients, per client (SCAN_RATE_LIMIT); none: not limited. */
  clientLimiter?: RateLimiter;
}

const TX = { maxWait: 30_000, timeout: 30_000 };

export const unscannable = (reason: string): ApiError => new ApiError(422, 'unscannable_url', reason);

export class ScanService {
  constructor(private readonly deps: ScanServiceDeps) {}

  /**
   * 422 for URLs that can never be scanned (a name that does not resolve is scanned and ends `failed`). Separate
   * from `start` so the API can refuse a URL before counting it against the client's rate limit.
   */
  /** The target of a URL under this deployment's rules (ports, see target.ts), without network checks. */
  normalize(rawUrl: string): ReturnType<typeof normalizeTarget> {
    return normalizeTarget(rawUrl, { anyPort: this.deps.fetchPolicy.allowPrivateNetworks === true });
  }

  async vet(rawUrl: string): Promise<ScanTarget> {
    const normalized = this.normalize(rawUrl);
    if (!normalized.ok) throw unscannable(normalized.reason);
    const check = await checkScannableUrl(normalized.value.url.href, {
      allowPrivateNetworks: this.deps.fetchPolicy.allowPrivateNetworks === true,
      lookup: this.deps.fetchPolicy.lookup,
    });
    if (!check.ok && check.code !== 'dns') throw unscannable(`${check.reason}.`.replace(/\.\.$/, '.'));
    return normalized.value;
  }

  async submit(input: { url: string; email?: string; origin?: ScanOrigin }): Promise<ScanStart> {
    return this.start(await this.vet(input.url), input);
  }

  /**
   * Counts one start (or join) asked for by `client` (its address) against the per-client scan limit; 429 with
   * Retry-After when its minute is used up. Call it after `vet` (a refused URL costs nothing) and before `start`.
   */
  async admit(client: string): Promise<void> {
    await this.deps.clientLimiter?.consume(client);
  }

  /** Starts or joins the scan of a target `vet` accepted. */
  async start(vetted: ScanTarget, input: { email?: string; origin?: ScanOrigin }): Promise<ScanStart> {
    const { url, target, domain } = vetted;
    const email = input.email?.trim();
    return this.transact(async (tx) => {
      const outcome = await this.startOrJoin(tx, { target, url: url.href, domain, email, origin: input.origin ?? 'api' });
      return outcome && { value: outcome, started: outcome.started };
    });
  }

  /**
   * Runs `work` (which starts or joins through `startOrJoin`) in one transaction, again when it answers null (the
   * scan it collided with ended between its insert and its read), and wakes the workers when it started a scan.
   */
  async transact<T>(work: (tx: Tx) => Promise<{ value: T; started: boolean } | null>): Promise<T> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const outcome = await this.deps.db.prisma.$transaction(work, TX);
      if (outcome) {
        if (outcome.started) this.deps.queue.notify(SCAN_JOB);
        return outcome.value;
      }
    }
    throw serviceUnavailable('The scan could not be registered; try again.');
  }

  /** Inside one transaction, so a rescan scheduler can reuse it. Null when a concurrent scan ended mid-way. */
  async startOrJoin(
    tx: Tx,
    s: { target: string; url: string; domain: string; email?: string; origin: ScanOrigin; enforceQueueLimit?: boolean },
  ): Promise<ScanStart | null> {
    const joined = await this.activeScan(tx, s.target);
    if (joined) return this.join(tx, joined, s.domain, s.email);
    if (s.enforceQueueLimit !== false) {
      const [{ waiting }] = await tx.$queryRawUnsafe<Array<{ waiting: number }>>(`SELECT count(*)::int AS waiting FROM scans WHERE state = 'waiting'`);
      if (waiting >= this.deps.queueLimit) {
        throw serviceUnavailable(`Too many scans are waiting (${this.deps.queueLimit}); try again in a minute.`, 'queue_full', 60);
      }
    }
    const id = randomUUID();
    const now = this.deps.clock();
    const inserted = await tx.$queryRawUnsafe<Array<{ id: string }>>(
      `INSERT INTO scans (id, target, active_target, url, domain, state, email, origin, company_id, created_at)
       VALUES ($1::uuid, $2::text, $2::text, $3::text, $4::varchar, 'waiting', $5::text, $6::varchar,
               (SELECT id FROM companies WHERE domain = $4::varchar), $7::timestamptz)
       ON CONFLICT (active_target) DO NOTHING RETURNING id`,
      id, s.target, s.url, s.domain, s.email ?? null, s.origin, now,
    );
    if (inserted.length === 0) {
      const winner = await this.activeScan(tx, s.target);
      return winner ? this.join(tx, winner, s.domain, s.email) : null;
    }
    await appendEvent(tx, id, 'waiting', now);
    if (s.email) await tx.scanRecipient.create({ data: { scanId: id, email: s.email } });
    await this.deps.queue.enqueue<ScanJobPayload>(SCAN_JOB, { scanId: id }, {}, tx);
    return { started: true, scan: { id, state: 'waiting' }, domain: s.domain };
  }

  private async activeScan(tx: Tx, target: string) {
    const rows = await tx.$queryRawUnsafe<Array<{ id: string; state: Scan['state'] }>>(
      `SELECT id, state::text AS state FROM scans WHERE active_target = $1`,
      target,
    );
    return rows[0];
  }

  private async join(tx: Tx, scan: { id: string; state: Scan['state'] }, domain: string, email?: string): Promise<ScanStart> {
    if (email) {
      await tx.$executeRawUnsafe(
        `INSERT INTO scan_recipients (scan_id, email) VALUES ($1::uuid, $2) ON CONFLICT DO NOTHING`,
        scan.id, email,
      );
    }
    return { started: false, scan: { id: scan.id, state: scan.state }, domain };
  }

  /** Operation 6's view: clients poll it, so it is kept between the scan's changes (view-cache.ts). */
  async read(id: string): Promise<Scan | null> {
    const views = this.deps.views;
    const kept = views?.get(id);
    if (kept) return kept;
    const since = views?.current ?? 0;
    const view = await this.readStored(id);
    if (view) views?.keep(id, view, since);
    return view;
  }

  /** One statement (the events aggregated in the database). */
  private async readStored(id: string): Promise<Scan | null> {
    const { rows } = await this.deps.db.executeSql(
      `SELECT s.id, s.state::text AS state, s.domain, s.ending::text AS ending, s.cause, s.score, s.grade, s.ended_at,
              (SELECT json_agg(json_build_object('step', e.step, 'at', e.at) ORDER BY e.id) FROM scan_events e WHERE e.scan_id = s.id)::text AS events
       FROM scans s WHERE s.id = $1::uuid`,
      [id],
    );
    const row = rows[0] as
      | { id: string; state: Scan['state']; domain: string; ending: Scan['ending'] | null; cause: string | null; score: number | null; grade: string | null; ended_at: Date | string | null; events: string | null }
      | undefined;
    const scan = row && {
      id: row.id,
      state: row.state,
      domain: row.domain,
      ending: row.ending,
      cause: row.cause,
      score: row.score === null ? null : Number(row.score),
      grade: row.grade,
      endedAt: row.ended_at === null ? null : new Date(row.ended_at),
      events: (JSON.parse(row.events ?? '[]') as Array<{ step: string; at: string }>).map((e) => ({ step: e.step, at: new Date(e.at) })),
    };
    if (!scan) return null;
    const view: Scan = {
      id: scan.id,
      state: scan.state,
      domain: scan.domain,
      events: scan.events.map((e) => ({ step: e.step, at: e.at.toISOString() })),
    };
    if (scan.state === 'ended' && scan.ending) {
      view.ending = scan.ending;
      view.cause = scan.cause ?? 'The scan ended.';
      view.endedAt = (scan.endedAt ?? scan.events.at(-1)?.at ?? new Date()).toISOString();
      if (scan.ending === 'finished' && scan.score !== null && scan.grade !== null) {
        view.score = scan.score;
        view.grade = scan.grade as Scan['grade'];
      }
    }
    return view;
  }
}
