// Answers getPopulationStats from the live counts (population-counts.ts) and the weekly series (weekly-series.ts),
// and describes the dataset. An answer is kept per query until the counts change or a week ends, so a read between
// two scan ends costs a lookup; a read after one costs O(checks x categories), never a pass over the companies.
import type { Db } from '@arl/db';
import type { LeaderboardService } from '../leaderboard/service';
import type { Population } from '../leaderboard/ranking';
import { CATALOG_VERSION } from '@arl/scanner';
import { notFound } from '../http/errors';
import {
  CHECKS, deepFreeze, GRADES, LAYERS, LICENSE, METHODOLOGY_VERSION, share, STATUS_KEYS, type DatasetInfo, type PopulationStats,
} from './definitions';
import { DATASET_COLUMNS } from './dataset';
import { PopulationCounts } from './population-counts';
import { quartiles, ScopeCounts } from './scope-counts';
import { WeeklySeries, weekStart, weekEnding } from './weekly-series';

export interface StatsQuery {
  category?: string;
  community?: 'include';
}

type WeeklyPoint = PopulationStats['weekly'][number];
type CheckStats = PopulationStats['checks'][number];
type CategoryStats = PopulationStats['categories'][number];
type Category = CategoryStats['category'];

interface ScopeFigures {
  score: PopulationStats['score'];
  grades: PopulationStats['grades'];
  layers: PopulationStats['layers'];
  checks: CheckStats[];
  passShares: WeeklyPoint['checks'];
  /** The current week's (partial) weekly point. */
  current: WeeklyPoint;
}

export interface DownloadSettings {
  /** The folder holding `npm run export`'s snapshots; a download of a population with a snapshot of the day serves it. */
  snapshotDir: string | null;
  /** A download whose reader takes nothing for this long is ended (downloads.ts). */
  idleTimeoutMs: number;
}

/** DATASET_IDLE_TIMEOUT's default. */
const DOWNLOAD_IDLE_MS = 30_000;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** How long a read waits for past weeks not computed yet (the first read at a large population); see WeeklySeries.past. */
const SERIES_WAIT_MS = 2_000;

export class OpenDataService {
  readonly counts: PopulationCounts;
  private readonly series: WeeklySeries;
  private readonly answers = new Map<string, { version: number; moves: number; series: number; week: number; index: object; stats: PopulationStats }>();
  /** Each scope's figures, kept while its counts do not move (their objects are frozen: see deepFreeze). */
  private readonly scopeFigures = new WeakMap<ScopeCounts, { version: number; week: number; figures: ScopeFigures }>();
  private readonly categoryAnswers = new Map<string, { version: number; week: number; ranked: number; category: Category; answer: CategoryStats }>();
  /** `counts.moves` when the weekly series was last valid. */
  private seriesMoves = -1;

  constructor(
    private readonly leaderboard: LeaderboardService,
    db: Db,
    private readonly options: { publicUrl: string; clock: () => Date; seriesWaitMs?: number; downloads?: Partial<DownloadSettings> },
  ) {
    this.counts = new PopulationCounts(leaderboard);
    this.series = new WeeklySeries(db);
  }

  close(): void {
    this.counts.close();
  }

  /** How the dataset downloads are served (handlers.ts): the snapshots' folder and the idle window. */
  get downloads(): DownloadSettings {
    return { snapshotDir: this.options.downloads?.snapshotDir ?? null, idleTimeoutMs: this.options.downloads?.idleTimeoutMs ?? DOWNLOAD_IDLE_MS };
  }

  async stats(query: StatsQuery): Promise<PopulationStats> {
    const index = await this.counts.sync();
    const now = this.options.clock();
    const population: Population = query.community === 'include' ? 'all' : 'curated';
    const key = `${population}:${query.category ?? ''}`;
    const week = weekStart(now);
    const kept = this.answers.get(key);
    // The figures have not moved since they were computed: the same answer (the same bytes on every path).
    // The index's version too: a company newly ranked changes the sizes before its checks are counted.
    if (kept && kept.version === this.counts.version && kept.moves === this.counts.moves && kept.series === this.series.version && kept.week === week && kept.index === index.version) return kept.stats;

    const version = this.counts.version;
    const moves = this.counts.moves;
    const indexVersion = index.version;
    // A new index (companies removed) or a company moved to another category or source: past weeks change.
    if (this.seriesMoves !== this.counts.moves) {
      this.series.clear();
      this.seriesMoves = this.counts.moves;
    }
    // A category is the one the counts met (a counted company of either population), else the categories table's
    // (one small read, only for a category without counted companies); a slug of neither is 404, not an empty
    // population. A known category without ranked companies answers itself, every count 0.
    const category = query.category === undefined ? null : this.counts.categoryBySlug(query.category) ?? (await this.storedCategory(query.category));
    const scope = this.counts.scope(population, category?.id ?? null);
    const ranked = index.size(population, category?.id);
    // No await when every past week is known: the answer is made and kept in this turn, so concurrent reads after
    // a scan's end share it instead of each making (and the HTTP layer serializing) its own.
    const { points: past, version: series } =
      this.series.known(population, category?.id ?? null, now) ??
      (await this.series.past(population, category?.id ?? null, now, this.options.seriesWaitMs ?? SERIES_WAIT_MS));
    const figures = this.figuresOf(scope, week);
    const categories = (category ? [category] : this.counts.categoriesOf(population)).map((c) =>
      this.categoryFigures(population, c, index.size(population, c.id), week),
    );
    const stats: PopulationStats = deepFreeze({
      population,
      category,
      computedAt: now.toISOString(),
      methodologyVersion: METHODOLOGY_VERSION,
      catalogVersion: CATALOG_VERSION,
      rankedCompanies: ranked,
      countedCompanies: scope.companies,
      score: figures.score,
      grades: figures.grades,
      layers: figures.layers,
      checks: figures.checks,
      categories,
      weekly: [...past, figures.current],
      dataset: this.datasetInfo(ranked, query),
    });
    // Only an answer computed from counts that did not move meanwhile (the weekly read awaits) is kept.
    if (version === this.counts.version && moves === this.counts.moves && indexVersion === index.version) this.answers.set(key, { version, moves, series, week, index: indexVersion, stats });
    return stats;
  }

  /** A category no counted company is in, from the categories table; 404 when there is none with this slug. */
  private async storedCategory(slug: string): Promise<Category> {
    const found = (await this.leaderboard.categories()).find((c) => c.slug === slug);
    if (!found) throw notFound(`No category ${JSON.stringify(slug)} (GET /v1/leaderboard/categories lists them).`);
    return found;
  }

  /** The figures of one scope's counts: computed when they moved since last asked, else the same frozen objects. */
  private figuresOf(scope: ScopeCounts, week: number): ScopeFigures {
    const kept = this.scopeFigures.get(scope);
    if (kept && kept.version === scope.version && kept.week === week) return kept.figures;
    const passed = passShares(scope);
    const figures: ScopeFigures = deepFreeze({
      score: quartiles(scope.scores),
      grades: grades(scope),
      layers: LAYERS.map((id, l) => {
        const histogram = scope.layer(l);
        return { id, scored: scope.companies - histogram[101], unscored: histogram[101], quartiles: quartiles(histogram) };
      }),
      checks: CHECKS.map((c, i) => {
        const { companies, counts } = scope.check(i);
        return {
          id: c.id,
          name: c.name,
          layer: c.layer,
          companies,
          counts: Object.fromEntries(STATUS_KEYS.map((k, s) => [k, counts[s]])) as CheckStats['counts'],
          shares: Object.fromEntries(STATUS_KEYS.map((k, s) => [k, share(counts[s], companies)])) as CheckStats['shares'],
        };
      }),
      passShares: passed,
      current: { weekEnding: weekEnding(week + WEEK_MS), partial: true, companies: scope.companies, grades: grades(scope), checks: passed },
    });
    this.scopeFigures.set(scope, { version: scope.version, week, figures });
    return figures;
  }

  /** One category's entry of `categories`, the same frozen object while its counts and size do not move. */
  private categoryFigures(population: Population, category: Category, ranked: number, week: number): CategoryStats {
    const scope = this.counts.scope(population, category.id);
    const key = `${population}:${category.id}`;
    const kept = this.categoryAnswers.get(key);
    if (kept && kept.version === scope.version && kept.week === week && kept.ranked === ranked && kept.category === category) return kept.answer;
    const figures = this.figuresOf(scope, week);
    const answer: CategoryStats = deepFreeze({
      category,
      rankedCompanies: ranked,
      countedCompanies: scope.companies,
      score: figures.score,
      grades: figures.grades,
      checks: figures.passShares,
    });
    this.categoryAnswers.set(key, { version: scope.version, week, ranked, category, answer });
    return answer;
  }

  /** What a download of the population would hold, and where to get it. */
  datasetInfo(rows: number, query: StatsQuery): DatasetInfo {
    const search = new URLSearchParams();
    if (query.category !== undefined) search.set('category', query.category);
    if (query.community) search.set('community', query.community);
    const suffix = search.size > 0 ? `?${search}` : '';
    const base = this.options.publicUrl.replace(/\/+$/, '');
    return {
      license: LICENSE.id,
      licenseUrl: LICENSE.url,
      methodologyVersion: METHODOLOGY_VERSION,
      catalogVersion: CATALOG_VERSION,
      rows,
      formats: [
        { format: 'csv', mediaType: 'text/csv', url: `${base}/v1/leaderboard/dataset.csv${suffix}` },
        { format: 'jsonl', mediaType: 'application/x-ndjson', url: `${base}/v1/leaderboard/dataset.jsonl${suffix}` },
      ],
      columns: DATASET_COLUMNS.map(({ name, description }) => ({ name, description })),
      documentation: `${base}/stats#dataset`,
    };
  }
}

function grades(scope: ScopeCounts): PopulationStats['grades'] {
  return GRADES.map((grade, g) => ({ grade, companies: scope.grades[g], share: share(scope.grades[g], scope.companies) }));
}

function passShares(scope: ScopeCounts): WeeklyPoint['checks'] {
  return CHECKS.map((c, i) => {
    const { companies, counts } = scope.check(i);
    return { id: c.id, companies, passed: counts[0], share: share(counts[0], companies) };
  });
}
