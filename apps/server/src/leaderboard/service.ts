// The leaderboard read side: a ranked snapshot kept in memory, rebuilt lazily after a change (or when it is a
// minute old, since 7-day movement moves with the clock), and paged with keyset cursors.
import type { LeaderboardOperations, LeaderboardSchemas } from '@arl/contract';
import type { ChangeFeed } from '../changes';
import { CursorCodec, InvalidCursorError, type CursorQuery } from './cursor';
import { lowerBound, matchingPositions } from './filtered-page';
import { buildSnapshot, indexAfter, keyOf, sortedView, SORTS, type Order, type Population, type RankedEntry, type Snapshot, type SortKey } from './ranking';
import type { CompanyRow, LeaderboardRepository } from './repository';
import { ScanDetails } from './scan-details';

type ListQuery = NonNullable<LeaderboardOperations['listLeaderboard']['parameters']['query']>;
type ListPage = LeaderboardSchemas['LeaderboardEntry'][];
export type CompanyDetail = LeaderboardSchemas['CompanyDetail'];

export const SNAPSHOT_MAX_AGE_MS = 60_000;

export class CursorError extends Error {}

export interface LeaderboardServiceOptions {
  repository: LeaderboardRepository;
  changes: ChangeFeed;
  cursorSecret: string;
  clock?: () => Date;
}

export class LeaderboardService {
  private snapshot: Snapshot | null = null;
  private building: { generation: number; promise: Promise<Snapshot> } | null = null;
  private generation = 0;
  private readonly cursors: CursorCodec;
  private readonly clock: () => Date;
  private readonly unsubscribe: () => void;
  /** Latest scans' layers and checks in memory (scan-details.ts), filled in the background after each rebuild. */
  private readonly details = new ScanDetails();
  private filling: Promise<void> | null = null;
  private fillAgain = false;
  /** Work done for each new snapshot after its details (see onSnapshot). */
  private readonly warmers: Array<(snap: Snapshot, replaced: () => boolean) => Promise<void>> = [];
  private closed = false;

  constructor(private readonly options: LeaderboardServiceOptions) {
    this.cursors = new CursorCodec(options.cursorSecret);
    this.clock = options.clock ?? (() => new Date());
    this.unsubscribe = options.changes.subscribe(() => this.invalidate());
  }

  /** Drops the snapshot; the next read rebuilds it. */
  invalidate(): void {
    this.generation++;
    this.snapshot = null;
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
  }

  /**
   * The snapshot reads are answered from now, or null when the next read will rebuild it (response-cache tag). A
   * snapshot older than SNAPSHOT_MAX_AGE_MS with no change since is still answered from, for at most one more
   * SNAPSHOT_MAX_AGE_MS, while a fresh one is built in the background: only the 7-day windows move with the clock,
   * and a rebuild (seconds at 100,000 companies) should not stall every read once a minute. A change never waits.
   */
  currentVersion(): object | null {
    const snap = this.snapshot;
    if (!snap) return null;
    const now = this.clock();
    const age = now.getTime() - snap.builtAt.getTime();
    if (age >= 0 && age < SNAPSHOT_MAX_AGE_MS) return snap;
    if (age >= 0 && age < 2 * SNAPSHOT_MAX_AGE_MS) {
      // A failed background build leaves the snapshot as it is; the next read after the grace rebuilds in line.
      this.build(now).catch(() => undefined);
      return snap;
    }
    return null;
  }

  async current(): Promise<Snapshot> {
    const snap = this.currentVersion() as Snapshot | null;
    return snap ?? this.build(this.clock());
  }

  /**
   * Single flight per generation: concurrent readers share one rebuild. A change during a rebuild starts another,
   * and readers after the change wait for that one (the earlier one may have read the data before the change).
   */
  private build(now: Date): Promise<Snapshot> {
    if (this.building && this.building.generation === this.generation) return this.building.promise;
    const generation = this.generation;
    const done = () => {
      if (this.building?.promise === promise) this.building = null;
    };
    const promise: Promise<Snapshot> = this.rebuild(now).then(
      (built) => {
        done();
        if (generation === this.generation) {
          this.snapshot = built;
          void this.fillDetails();
        }
        return built;
      },
      (err) => {
        done();
        throw err;
      },
    );
    this.building = { generation, promise };
    return promise;
  }

  private async rebuild(now: Date): Promise<Snapshot> {
    const [companies, history] = await Promise.all([
      this.options.repository.scoredCompanies(),
      this.options.repository.historyFacts(now),
    ]);
    return buildSnapshot(companies, history, now);
  }

  async list(query: ListQuery): Promise<{ items: ListPage; nextCursor: string | null; total: number }> {
    const sort: SortKey = query.sort ?? 'score';
    const order: Order = query.order ?? SORTS[sort].defaultOrder;
    const limit = query.limit ?? 50;
    const population: Population = query.community === 'include' ? 'all' : 'curated';
    const q = query.q?.toLowerCase() ?? null;
    const category = query.category ?? null;
    const cursorQuery: CursorQuery = { sort, order, q, category, population };

    const snap = await this.current();
    const view = snap.populations[population];
    const sorted = sortedView(view, sort, order);
    const { list } = sorted;
    let start = 0;
    if (query.cursor) {
      try {
        start = indexAfter(list, this.cursors.decode(query.cursor, cursorQuery, SORTS[sort].parts.length), sort, order);
      } catch (err) {
        if (err instanceof InvalidCursorError) throw new CursorError(err.message);
        throw err;
      }
    }

    // The page: indexes into `list` of the matching entries from `start` on, at most `limit` of them.
    let page: RankedEntry[];
    let hasMore: boolean;
    let total: number;
    if (q === null && category === null) {
      page = list.slice(start, start + limit);
      hasMore = start + limit < list.length;
      total = list.length;
    } else {
      const positions = matchingPositions(view, sorted, q, category);
      const from = lowerBound(positions, start);
      page = Array.from(positions.subarray(from, from + limit), (i) => list[i]);
      hasMore = from + limit < positions.length;
      total = positions.length;
    }
    const last = page[page.length - 1];
    return {
      items: page.map((e) => e.json),
      nextCursor: hasMore && last ? this.cursors.encode(cursorQuery, keyOf(last, sort)) : null,
      total,
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
    const snap = await this.current();
    const row = this.companyFromMemory(snap, domain.toLowerCase()) ?? (await this.companyFromDatabase(domain.toLowerCase()));
    if (!row || (row.source === 'community' && !includeCommunity)) return null;
    const view = snap.populations[includeCommunity ? 'all' : 'curated'];
    const entry = view.byDomain.get(row.domain);
    const scan = row.latestScan;
    return {
      id: row.id,
      name: row.name,
      website: row.website,
      domain: row.domain,
      category: row.category,
      source: row.source,
      score: entry?.company.score ?? row.score,
      grade: (entry?.company.grade ?? row.grade) as CompanyDetail['grade'],
      rank: entry?.rank ?? null,
      rankedCompanies: entry ? view.ranked.length : null,
      categoryRank: entry?.categoryRank ?? null,
      categoryRankedCompanies: entry && row.category ? view.categoryCounts.get(row.category.id) ?? null : null,
      scoreChange7d: entry?.json.scoreChange7d ?? null,
      rankChange7d: entry?.json.rankChange7d ?? null,
      newThisWeek: entry ? entry.json.newThisWeek : null,
      scannedAt: row.scannedAt ? row.scannedAt.toISOString() : null,
      summary: row.summary ?? scan?.summary ?? null,
      layers: scan
        ? scan.layers.map((l) => ({ id: l.layer as LeaderboardSchemas['LayerId'], weight: l.weight, score: l.score }))
        : null,
      checks: scan
        ? scan.checks.map((c) => ({
            id: c.checkId,
            name: c.name,
            layer: c.layer as LeaderboardSchemas['LayerId'],
            tier: c.tier as LeaderboardSchemas['Check']['tier'],
            label: c.label as LeaderboardSchemas['Check']['label'],
            bonus: c.bonus,
            status: c.status as LeaderboardSchemas['Check']['status'],
            earned: c.earned,
            points: c.points,
          }))
        : null,
    };
  }

  /**
   * A ranked company as the database row would read, from the snapshot and the kept scan details; undefined when
   * its latest scan's details are not kept (yet) or it has no summary of its own to answer.
   */
  private companyFromMemory(snap: Snapshot, domain: string): CompanyRow | undefined {
    const company = snap.populations.all.byDomain.get(domain)?.company;
    if (!company?.latestScanId || company.summary === null) return undefined;
    const rows = this.details.get(company.latestScanId);
    if (!rows) return undefined;
    const { id, name, website, source, score, grade, summary, scannedAt, category } = company;
    return { id, name, website, domain: company.domain, source, score, grade, summary, scannedAt, category, latestScan: { summary: null, ...rows } };
  }

  private async companyFromDatabase(domain: string): Promise<CompanyRow | null> {
    const row = await this.options.repository.companyByDomain(domain);
    if (row?.latestScanId && row.latestScan) this.details.put(row.latestScanId, row.latestScan);
    return row;
  }

  /**
   * Registers work to do in the background for each new snapshot once its scan details are filled (the direct
   * reads serialize and validate its entries ahead of the first answers). `replaced()` turns true when a newer
   * snapshot makes the work moot.
   */
  onSnapshot(warmer: (snap: Snapshot, replaced: () => boolean) => Promise<void>): void {
    this.warmers.push(warmer);
  }

  /** Scan details kept in memory (metrics, tests). */
  detailsKept(): number {
    return this.details.size;
  }

  /**
   * Loads the details of every ranked company's latest scan that is not kept yet, a chunk per statement, and
   * forgets those no longer latest; then runs the snapshot's warmers (onSnapshot). One pass at a time; a rebuild during a pass asks for another. Resolves when
   * the kept details match the current snapshot (tests wait for it).
   */
  fillDetails(): Promise<void> {
    if (this.filling) {
      this.fillAgain = true;
      return this.filling;
    }
    this.filling = (async () => {
      do {
        this.fillAgain = false;
        const snap = this.snapshot;
        if (!snap || this.closed) break;
        const latest = new Set<string>();
        for (const e of snap.populations.all.ranked) if (e.company.latestScanId) latest.add(e.company.latestScanId);
        this.details.retainOnly(latest);
        const missing = [...latest].filter((id) => !this.details.has(id));
        // Small chunks: with the embedded database each statement runs on the thread that answers requests.
        for (let i = 0; i < missing.length && !this.closed && !this.fillAgain; i += DETAIL_CHUNK) {
          for (const { id, detail } of await this.options.repository.scanDetails(missing.slice(i, i + DETAIL_CHUNK))) {
            this.details.put(id, JSON.parse(detail));
          }
        }
        const replaced = () => this.closed || this.fillAgain || this.snapshot !== snap;
        for (const warm of this.warmers) if (!replaced()) await warm(snap, replaced);
      } while (this.fillAgain && !this.closed);
    })()
      // A failed pass only means company reads go to the database; the next rebuild tries again.
      .catch(() => undefined)
      .finally(() => {
        this.filling = null;
      });
    return this.filling;
  }
}

const DETAIL_CHUNK = 100;
