// The leaderboard read side: the live index (live-index.ts), loaded once from the database and then changed in place
// by every change the feed brings (changes.ts), and paged with keyset cursors. A full load happens at start-up and
// for recovery only (an undescribed change, a lost notification connection).
import type { LeaderboardOperations, LeaderboardSchemas } from '@arl/contract';
import type { ChangeFeed, ChangeListener, LeaderboardChange } from '../changes';
import type { RecordedRanks } from '../reports/record-rank';
import type { ScanEnded, ScanEndedEvents } from '../scans/scan-ended';
import { ChangeWatermark, MAX_CATCH_UP_ROWS } from './catch-up';
import { CursorCodec, InvalidCursorError, type CursorQuery } from './cursor';
import { LiveIndex, type CompanyFacts, type Item } from './live-index';
import { keyOf, SORTS, type Order, type Population, type SortKey } from './ranking';
import type { CheckRow, CompanyRead, LayerRow, LeaderboardRepository } from './repository';
import { ScanDetails, type ScanDetailRows } from './scan-details';

type ListQuery = NonNullable<LeaderboardOperations['listLeaderboard']['parameters']['query']>;
type ListPage = LeaderboardSchemas['LeaderboardEntry'][];
export type CompanyDetail = LeaderboardSchemas['CompanyDetail'];

export class CursorError extends Error {}

export interface LeaderboardServiceOptions {
  repository: LeaderboardRepository;
  changes: ChangeFeed;
  /** This process's scans' ends: their facts and detail are applied from the event itself (no statement). */
  scanEnded?: ScanEndedEvents;
  cursorSecret: string;
  clock?: () => Date;
  /**
   * How often to look for changes no notification brought (catch-up.ts), in ms; 0: never (one process holds the
   * embedded database and hears every change it makes). Catch-ups also run after every (re)connection of the feed.
   */
  checkEveryMs?: number;
}

/** Where this process's index stands against the database (readiness and /metrics). */
export interface Freshness {
  /** An index is loaded (a worker-only process never loads one: it answers no reads). */
  loaded: boolean;
  /** When the last check against the database succeeded (ms since the epoch; the load counts), null: never. */
  lastCheckAt: number | null;
  /** Companies that a check found changed and no notification had brought (since start). */
  missed: number;
  /** Checks that failed (the database did not answer) since start. */
  failedChecks: number;
}

/**
 * Told of what the index does, so that figures kept beside it (open-data/ population statistics) follow it change by
 * change instead of recounting: a load, a company's new facts, a latest scan's details kept. Calls are synchronous
 * and an observer's error is swallowed: it must never break a read or a change.
 */
export interface IndexObserver {
  /** A new index replaced the one before (start-up, recovery): everything is to be counted again from it. */
  loaded(index: LiveIndex): void;
  /** A company's new facts were applied to the index (a new scan, a category or name change). */
  changed(item: Item): void;
  /** A scan's layers and checks are now kept in memory (`latestDetails` answers them). */
  detailsKept(scanId: string): void;
}

export class LeaderboardService {
  private index: LiveIndex | null = null;
  /** The load in flight; `generation` counts the reloads asked for, so a load older than the last ask is not kept. */
  private loading: { generation: number; promise: Promise<LiveIndex> } | null = null;
  private generation = 0;
  /** Changes heard while a load runs: applied to its index too (it may have read the data before them). */
  private heardDuringLoad: CompanyFacts[] = [];
  private readonly cursors: CursorCodec;
  private readonly clock: () => Date;
  private readonly unsubscribe: () => void;
  private readonly unfollow: () => void;
  private readonly listener: ChangeListener = (change) => this.apply(change);
  /** Latest scans' layers and checks in memory (scan-details.ts), filled in the background. */
  private readonly details = new ScanDetails();
  /** Scans whose details to load on the next fill pass; null: check every ranked company's (after a load). */
  private detailsWanted: Set<string> | null = new Set();
  private filling: Promise<void> | null = null;
  private fillAgain = false;
  /** Full loads done (tests assert that a change did not cause one). */
  loads = 0;
  private closed = false;
  private readonly watermark = new ChangeWatermark();
  private checking: Promise<void> | null = null;
  private checkTimer: NodeJS.Timeout | null = null;
  private readonly fresh: Freshness = { loaded: false, lastCheckAt: null, missed: 0, failedChecks: 0 };
  private readonly observers = new Set<IndexObserver>();

  constructor(private readonly options: LeaderboardServiceOptions) {
    this.cursors = new CursorCodec(options.cursorSecret);
    this.clock = options.clock ?? (() => new Date());
    this.unsubscribe = options.changes.subscribe(this.listener);
    this.unfollow = options.scanEnded?.subscribe((ended) => this.scanEnded(ended)) ?? (() => undefined);
    if (options.checkEveryMs) {
      this.checkTimer = setInterval(() => void this.catchUp().catch(() => undefined), options.checkEveryMs);
      this.checkTimer.unref();
    }
  }

  /**
   * Applies a change. Facts are applied synchronously (before the publisher's `publish` returns), so a read that
   * starts after a scan's end has committed in this process sees it.
   */
  apply(change: LeaderboardChange): void | Promise<void> {
    switch (change.kind) {
      case 'companies':
        return this.applyFacts(change.companies);
      case 'ids':
        return this.options.repository.companyFacts(change.ids, this.clock()).then((facts) => this.applyFacts(facts));
      case 'reload':
        return this.invalidate();
      case 'resync':
        // The feed (re)connected: what was missed meanwhile is read before the feed is trusted again. Reads keep the
        // current index meanwhile. Without an index there is nothing to catch up (the first read loads one).
        return this.catchUp();
    }
  }

  /**
   * A scan of this process ended: its company's facts and the detail its transaction wrote are applied here at once,
   * without a statement, then published to the other processes (which read the detail themselves).
   */
  private scanEnded(ended: ScanEnded): Promise<void> | void {
    if (!ended.company) return;
    this.applyFacts([ended.company], ended);
    return this.options.changes.publish({ kind: 'companies', companies: [ended.company] }, this.listener);
  }

  /**
   * Applies the changes committed that this process has not applied (catch-up.ts): the companies changed past the
   * low-water mark whose versions no notification brought, or a full reload when too many changed. Single flight.
   * Rejects when the database does not answer (the feed stays untrusted, the next check tries again).
   */
  catchUp(): Promise<void> {
    if (!this.index || this.closed) return Promise.resolve();
    this.checking ??= this.check().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async check(): Promise<void> {
    const started = Date.now();
    try {
      const rows = await this.options.repository.changedSince(this.watermark.low(started), MAX_CATCH_UP_ROWS + 1);
      const plan = this.watermark.plan(rows);
      if (plan.reload) {
        await this.load();
        return;
      }
      if (plan.missed.length > 0) {
        this.fresh.missed += plan.missed.length;
        this.applyFacts(await this.options.repository.companyFacts(plan.missed, this.clock()));
      }
      this.watermark.checked(rows, started);
      this.fresh.lastCheckAt = started;
    } catch (err) {
      this.fresh.failedChecks++;
      throw err;
    }
  }

  /** Where this process's index stands against the database. */
  freshness(): Freshness {
    return { ...this.fresh, loaded: this.index !== null };
  }

  /** `written`: a scan's detail as its end wrote it, kept when that scan becomes its company's latest. */
  private applyFacts(facts: CompanyFacts[], written?: { scanId: string; detail: ScanDetailRows }): void {
    for (const f of facts) this.watermark.heard(f.changeVersion);
    if (this.loading) this.heardDuringLoad.push(...facts);
    const index = this.index;
    if (!index) return;
    for (const f of facts) {
      const before = index.byDomain(f.domain)?.company.latestScanId ?? null;
      if (!index.upsert(f)) continue;
      if (before !== f.latestScanId) {
        // Its previous scan's details are no longer answered; the new scan's are kept as written, or else loaded
        // in the background. Kept before observers hear of the change, so they find them.
        if (before) this.details.delete(before);
        if (f.latestScanId && f.latestScanId === written?.scanId) this.keepDetails(written.scanId, written.detail);
        else if (f.latestScanId) this.wantDetails(f.latestScanId);
      }
      const item = index.byCompanyId(f.id);
      if (item) this.tell((o) => o.changed(item));
    }
  }

  /**
   * The ranks the company will have in both populations once these facts are applied, from the loaded index
   * (O(log n)); null when no index is loaded here (a worker-only process). The transaction that ends a scan records
   * them on its history point.
   */
  ranksIf(facts: CompanyFacts): RecordedRanks | null {
    const index = this.index;
    if (!index) return null;
    return { all: index.rankIf(facts, 'all')!, curated: index.rankIf(facts, 'curated') };
  }

  /** Drops the index; the next read loads it again (an undescribed change). */
  invalidate(): void {
    this.generation++;
    this.index = null;
  }

  close(): void {
    this.closed = true;
    if (this.checkTimer) clearInterval(this.checkTimer);
    this.unsubscribe();
    this.unfollow();
  }

  /**
   * Identifies the data reads are answered from now, or null when the next read will load the index
   * (response-cache tag): a new object after every change, and when the clock moves a 7-day fact.
   */
  currentVersion(): object | null {
    const index = this.index;
    if (!index) return null;
    index.advance(this.clock());
    return index.version;
  }

  /** The index as of now, loaded first if needed (start-up, or after an undescribed change). */
  async current(): Promise<LiveIndex> {
    const index = this.index ?? (await this.load());
    index.advance(this.clock());
    return index;
  }

  /** Single flight per generation: concurrent readers share one load; a reload asked for during a load starts another. */
  private load(): Promise<LiveIndex> {
    if (this.loading && this.loading.generation === this.generation) return this.loading.promise;
    const generation = this.generation;
    this.heardDuringLoad = [];
    const done = () => {
      if (this.loading?.promise === promise) this.loading = null;
    };
    const promise: Promise<LiveIndex> = this.rebuild().then(
      (built) => {
        done();
        for (const f of this.heardDuringLoad) built.upsert(f);
        this.heardDuringLoad = [];
        if (generation === this.generation) {
          this.index = built;
          this.tell((o) => o.loaded(built));
          this.detailsWanted = null;
          void this.fillDetails();
        }
        return built;
      },
      (err) => {
        done();
        throw err;
      },
    );
    this.loading = { generation, promise };
    return promise;
  }

  private async rebuild(): Promise<LiveIndex> {
    const now = this.clock();
    const started = Date.now();
    // Read before the companies: a change committed after this is read by the load or found by the next check.
    const version = await this.options.repository.maxChangeVersion();
    const visible = await this.options.repository.changedSince(ChangeWatermark.loadLow(version), MAX_CATCH_UP_ROWS);
    const [companies, history] = await Promise.all([this.options.repository.scoredCompanies(), this.options.repository.historyFacts(now)]);
    this.loads++;
    this.watermark.loaded(version, visible, started);
    this.fresh.lastCheckAt = started;
    return LiveIndex.load(companies, history, now);
  }

  async list(query: ListQuery): Promise<{ items: ListPage; nextCursor: string | null; total: number }> {
    const sort: SortKey = query.sort ?? 'score';
    const order: Order = query.order ?? SORTS[sort].defaultOrder;
    const limit = query.limit ?? 50;
    const population: Population = query.community === 'include' ? 'all' : 'curated';
    const q = query.q?.toLowerCase() ?? null;
    const category = query.category ?? null;
    const cursorQuery: CursorQuery = { sort, order, q, category, population };

    const index = await this.current();
    let after = null;
    if (query.cursor) {
      try {
        after = this.cursors.decode(query.cursor, cursorQuery, SORTS[sort].parts.length);
      } catch (err) {
        if (err instanceof InvalidCursorError) throw new CursorError(err.message);
        throw err;
      }
    }
    const page = index.page(population, sort, order, q, category, after, limit);
    const last = page.items[page.items.length - 1];
    return {
      items: page.items.map((item) => index.entry(item, population)),
      nextCursor: page.hasMore && last ? this.cursors.encode(cursorQuery, keyOf(last, sort)) : null,
      total: page.total,
    };
  }

  /** The curated companies (each has a page and an operation 3 read), with the time of their latest scan. */
  async companyPages(limit: number): Promise<Array<{ domain: string; scannedAt: Date | null }>> {
    return this.options.repository.curatedCompanyPages(limit);
  }

  async categories(): Promise<LeaderboardSchemas['Category'][]> {
    return this.options.repository.categories();
  }

  /** The company read; null when it does not exist or is a community company and `includeCommunity` is false. */
  async company(domain: string, includeCommunity: boolean): Promise<CompanyDetail | null> {
    const index = await this.current();
    const item = index.byDomain(domain.toLowerCase());
    const read = this.companyFromMemory(item) ?? (await this.companyFromDatabase(domain.toLowerCase()));
    if (!read || (read.company.source === 'community' && !includeCommunity)) return null;
    const { company: row, latestScan: scan } = read;
    const population: Population = includeCommunity ? 'all' : 'curated';
    const ranked = index.byDomain(row.domain);
    const entry = ranked && index.inPopulation(ranked, population) ? ranked : undefined;
    const json = entry ? index.entry(entry, population) : undefined;
    return {
      id: row.id,
      name: row.name,
      website: row.website,
      domain: row.domain,
      category: row.category,
      source: row.source,
      score: entry?.company.score ?? row.score,
      grade: entry?.company.grade ?? row.grade,
      rank: json?.rank ?? null,
      rankedCompanies: entry ? index.size(population) : null,
      categoryRank: entry ? index.categoryRank(entry, population) : null,
      categoryRankedCompanies: entry && row.category ? index.size(population, row.category.id) || null : null,
      scoreChange7d: json?.scoreChange7d ?? null,
      rankChange7d: json?.rankChange7d ?? null,
      newThisWeek: json ? json.newThisWeek : null,
      scannedAt: row.scannedAt ? row.scannedAt.toISOString() : null,
      summary: row.summary ?? scan?.summary ?? null,
      layers: scan ? scan.layers.map(layerAnswer) : null,
      checks: scan ? scan.checks.map(checkAnswer) : null,
    };
  }

  /**
   * A ranked company as the database row would read, from the index and the kept scan details; undefined when its
   * latest scan's details are not kept (yet) or it has no summary of its own to answer.
   */
  private companyFromMemory(item: Item | undefined): CompanyRead | undefined {
    const company = item?.company;
    if (!company?.latestScanId || company.summary === null) return undefined;
    const rows = this.details.get(company.latestScanId);
    if (!rows) return undefined;
    return { company, latestScan: { summary: null, ...rows } };
  }

  private async companyFromDatabase(domain: string): Promise<CompanyRead | null> {
    const read = await this.options.repository.companyByDomain(domain);
    if (read?.company.latestScanId && read.latestScan) this.keepDetails(read.company.latestScanId, read.latestScan);
    return read;
  }

  /** Follows the index from now on (see IndexObserver); returns the function that stops it. */
  observe(observer: IndexObserver): () => void {
    this.observers.add(observer);
    return () => void this.observers.delete(observer);
  }

  /** A latest scan's layers and checks as kept in memory, or undefined while they are not (yet) kept. */
  latestDetails(scanId: string): ScanDetailRows | undefined {
    return this.details.get(scanId);
  }

  private keepDetails(scanId: string, rows: ScanDetailRows): void {
    if (this.details.put(scanId, rows)) this.tell((o) => o.detailsKept(scanId));
  }

  private tell(call: (observer: IndexObserver) => void): void {
    for (const observer of this.observers) {
      try {
        call(observer);
      } catch {
        // An observer's fault is its own (it recounts on the next load); the leaderboard goes on.
      }
    }
  }

  /** Scan details kept in memory (metrics, tests). */
  detailsKept(): number {
    return this.details.size;
  }

  private wantDetails(scanId: string): void {
    this.detailsWanted?.add(scanId);
    void this.fillDetails();
  }

  /**
   * Loads the details of the scans wanted (after a load: every ranked company's latest scan not kept yet, and those
   * no longer latest are forgotten), a chunk per statement. One pass at a time; a change during a pass asks for
   * another. Resolves when the kept details match the index (tests and the benchmark wait for it).
   */
  fillDetails(): Promise<void> {
    if (this.filling) {
      this.fillAgain = true;
      return this.filling;
    }
    this.filling = (async () => {
      do {
        this.fillAgain = false;
        const index = this.index;
        if (!index || this.closed) break;
        let missing: string[];
        if (this.detailsWanted === null) {
          const latest = new Set<string>();
          for (const item of index.items()) if (item.company.latestScanId) latest.add(item.company.latestScanId);
          this.details.retainOnly(latest);
          missing = [...latest];
        } else missing = [...this.detailsWanted];
        this.detailsWanted = new Set();
        missing = missing.filter((id) => !this.details.has(id));
        // Small chunks: with the embedded database each statement runs on the thread that answers requests.
        for (let i = 0; i < missing.length && !this.closed; i += DETAIL_CHUNK) {
          const chunk = missing.slice(i, i + DETAIL_CHUNK);
          // Kept under the index's own id string, not the row's copy of it (56 bytes a company at 1,000,000).
          const ids = new Map(chunk.map((id) => [id, id]));
          for (const { id, detail } of await this.options.repository.scanDetails(chunk)) {
            this.keepDetails(ids.get(id) ?? id, JSON.parse(detail));
          }
        }
      } while (this.fillAgain && !this.closed);
    })()
      // A failed pass only means company reads go to the database; the next change or load tries again.
      .catch(() => undefined)
      .finally(() => {
        this.filling = null;
      });
    return this.filling;
  }
}

const DETAIL_CHUNK = 100;

type Layer = LeaderboardSchemas['Layer'];
type Check = LeaderboardSchemas['Check'];

// A frozen row (shared by every scan with it, scan-details.ts) answers as one frozen object too, so the answer path
// remembers its text and verdict (http/frozen-memo.ts); a row read from the database is answered afresh.
const layerAnswers = new WeakMap<LayerRow, Layer>();
const checkAnswers = new WeakMap<CheckRow, Check>();

/** The answer of a row: made afresh, or once per frozen row and frozen itself. */
function answerOf<R extends object, A>(answers: WeakMap<R, A>, row: R, make: (row: R) => A): A {
  if (!Object.isFrozen(row)) return make(row);
  let answer = answers.get(row);
  if (answer === undefined) answers.set(row, (answer = Object.freeze(make(row))));
  return answer;
}

const layerAnswer = (l: LayerRow): Layer =>
  answerOf(layerAnswers, l, () => ({ id: l.layer as LeaderboardSchemas['LayerId'], weight: l.weight, score: l.score }));

const checkAnswer = (c: CheckRow): Check =>
  answerOf(checkAnswers, c, () => ({
    id: c.checkId,
    name: c.name,
    layer: c.layer as LeaderboardSchemas['LayerId'],
    tier: c.tier as Check['tier'],
    label: c.label as Check['label'],
    bonus: c.bonus,
    status: c.status as Check['status'],
    earned: c.earned,
    points: c.points,
  }));
