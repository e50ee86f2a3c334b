// The population statistics kept beside the live index: the counts of every scope (each population, and each
// category of it; scope-counts.ts), changed company by company as the leaderboard applies changes
// (LeaderboardService.observe), never recounted per request.
//
// What a company contributes is its latest scan's check statuses (from the leaderboard's kept scan details), its
// grade, score and layer scores, in the scopes of its source and category. Each company's counted contribution is
// kept here too, by its slot in the index (typed arrays: ~65 bytes a company), so a change takes exactly the old
// one away and adds the new one. A new scan's details are loaded by the leaderboard in the background: until they
// are kept, the company keeps contributing its previous scan (or, new, does not count yet); `countedCompanies`
// says how many count. A new index (start-up, recovery) is counted once from scratch, 10,000 companies per turn of
// the event loop.
import type { LeaderboardSchemas } from '@arl/contract';
import type { Item, LiveIndex } from '../leaderboard/live-index';
import type { Population } from '../leaderboard/ranking';
import type { IndexObserver, LeaderboardService } from '../leaderboard/service';
import type { ScanDetailRows } from '../leaderboard/scan-details';
import { CHECKS, checkIndex, gradeCode, LAYERS, NO_RESULT, NO_SCORE, statusCode } from './definitions';
import { ScopeCounts } from './scope-counts';

type Category = LeaderboardSchemas['Category'];

const C = CHECKS.length;
const L = LAYERS.length;

export class PopulationCounts implements IndexObserver {
  /** The index counted (null: none yet; `sync` counts the leaderboard's current one). */
  private index: LiveIndex | null = null;
  private scopes = new Map<string, ScopeCounts>();
  // Per slot of the index: the counted contribution (countedScan undefined: not counted).
  private countedScan: Array<string | undefined> = [];
  private statuses = new Uint8Array(0);
  private layerScores = new Uint8Array(0);
  private grades = new Uint8Array(0);
  private scores = new Uint8Array(0);
  private curated = new Uint8Array(0);
  private categoryOf: Array<string | null> = [];
  /** Companies whose latest scan's details are not kept yet, by that scan's id. */
  private readonly waiting = new Map<string, Item>();
  /** The categories met, by id (the index shares one object per category). */
  private readonly categories = new Map<string, Category>();
  /** Changes with every contribution added or taken away (the answers' cache key). */
  version = 0;
  /**
   * Companies that changed category or source (an operator's move): the weekly series, which counts past weeks in
   * each company's current category, is computed again.
   */
  moves = 0;
  /** Counts from scratch (a new index): tests check that a change never causes one. */
  fullCounts = 0;
  private readonly stop: () => void;

  constructor(private readonly leaderboard: LeaderboardService) {
    this.stop = leaderboard.observe(this);
  }

  close(): void {
    this.stop();
  }

  /** Counts the leaderboard's current index (loading it first if need be) unless it is the one counted. */
  async sync(): Promise<LiveIndex> {
    const index = await this.leaderboard.current();
    if (index !== this.index) this.loaded(index);
    return index;
  }

  loaded(index: LiveIndex): void {
    this.index = index;
    this.scopes = new Map();
    this.countedScan = [];
    this.statuses = new Uint8Array(0);
    this.layerScores = new Uint8Array(0);
    this.grades = new Uint8Array(0);
    this.scores = new Uint8Array(0);
    this.curated = new Uint8Array(0);
    this.categoryOf = [];
    this.waiting.clear();
    this.fullCounts++;
    this.version++;
    this.moves++;
    // A large index is counted a slice at a time, yielding between slices: reading every company's kept details in
    // one go would hold the thread that answers requests for seconds at a million (a recovery's reload). Meanwhile
    // `countedCompanies` says how far it got; a change to a company not reached yet is counted by `changed` (a
    // second count of it later is the same contribution again).
    const items = index.items();
    const slice = (): void => {
      if (this.index !== index) return; // a newer load took over
      for (let n = 0; n < COUNT_SLICE; n++) {
        const next = items.next();
        if (next.done) return;
        this.recount(next.value);
      }
      setImmediate(slice);
    };
    slice();
  }

  changed(item: Item): void {
    // A change of an index not counted yet is counted with it (sync).
    if (!this.index || this.index.byCompanyId(item.id) !== item) return;
    const slot = item.slot;
    if (this.countedScan[slot] !== undefined) {
      const curated = item.company.source === 'curated' ? 1 : 0;
      if (this.categoryOf[slot] !== (item.company.category?.id ?? null) || this.curated[slot] !== curated) this.moves++;
    }
    this.recount(item);
  }

  detailsKept(scanId: string): void {
    const item = this.waiting.get(scanId);
    if (!item) return;
    this.waiting.delete(scanId);
    if (item.company.latestScanId === scanId && this.index?.byCompanyId(item.id) === item) this.recount(item);
  }

  /** The counts of a population (and category); an empty scope when nothing counts there. */
  scope(population: Population, categoryId: string | null): ScopeCounts {
    return this.scopes.get(scopeKey(population, categoryId)) ?? EMPTY;
  }

  /** The categories with at least one counted company of the population, by name. */
  categoriesOf(population: Population): Category[] {
    return [...this.categories.values()]
      .filter((c) => this.scope(population, c.id).companies > 0)
      .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.id.localeCompare(b.id));
  }

  categoryBySlug(slug: string): Category | undefined {
    for (const c of this.categories.values()) if (c.slug === slug) return c;
    return undefined;
  }

  /** Companies waiting for their latest scan's details (tests, metrics). */
  get pending(): number {
    return this.waiting.size;
  }

  /** Takes the company's counted contribution away and adds its current one, when its latest scan's details are kept. */
  private recount(item: Item): void {
    const scanId = item.company.latestScanId;
    const rows = scanId ? this.leaderboard.latestDetails(scanId) : undefined;
    if (!rows) {
      // Its previous contribution (if any) stands until the new scan's details are kept.
      if (scanId) this.waiting.set(scanId, item);
      return;
    }
    const slot = item.slot;
    this.reserve(slot);
    if (this.countedScan[slot] !== undefined) this.apply(slot, -1);
    this.write(slot, item, rows);
    this.apply(slot, 1);
    this.version++;
  }

  private write(slot: number, item: Item, rows: ScanDetailRows): void {
    const statuses = this.statuses.subarray(slot * C, slot * C + C).fill(NO_RESULT);
    for (const check of rows.checks) {
      const i = checkIndex(check.checkId);
      if (i >= 0) statuses[i] = statusCode(check.status);
    }
    const layers = this.layerScores.subarray(slot * L, slot * L + L).fill(NO_SCORE);
    for (const layer of rows.layers) {
      const l = LAYERS.indexOf(layer.layer as (typeof LAYERS)[number]);
      if (l >= 0 && layer.score !== null) layers[l] = clampScore(layer.score);
    }
    const { company } = item;
    this.grades[slot] = gradeCode(company.grade);
    this.scores[slot] = clampScore(company.score);
    this.curated[slot] = company.source === 'curated' ? 1 : 0;
    this.categoryOf[slot] = company.category?.id ?? null;
    if (company.category) this.categories.set(company.category.id, company.category);
    this.countedScan[slot] = company.latestScanId ?? undefined;
  }

  /** Adds or takes away the contribution stored at the slot, in every scope it belongs to. */
  private apply(slot: number, sign: 1 | -1): void {
    const contribution = {
      statuses: this.statuses.subarray(slot * C, slot * C + C),
      grade: this.grades[slot],
      score: this.scores[slot],
      layers: this.layerScores.subarray(slot * L, slot * L + L),
    };
    const category = this.categoryOf[slot];
    const populations: Population[] = this.curated[slot] ? ['all', 'curated'] : ['all'];
    for (const population of populations) {
      this.scopeFor(population, null).apply(contribution, sign);
      if (category) this.scopeFor(population, category).apply(contribution, sign);
    }
    if (sign < 0) this.countedScan[slot] = undefined;
  }

  private scopeFor(population: Population, categoryId: string | null): ScopeCounts {
    const key = scopeKey(population, categoryId);
    let scope = this.scopes.get(key);
    if (!scope) this.scopes.set(key, (scope = new ScopeCounts()));
    return scope;
  }

  /** Room for the slot in every per-slot array (doubling). */
  private reserve(slot: number): void {
    if (slot < this.grades.length) return;
    const size = Math.max(1024, 2 ** Math.ceil(Math.log2(slot + 1)));
    const grow = (old: Uint8Array, per: number) => {
      const next = new Uint8Array(size * per);
      next.set(old);
      return next;
    };
    this.statuses = grow(this.statuses, C);
    this.layerScores = grow(this.layerScores, L);
    this.grades = grow(this.grades, 1);
    this.scores = grow(this.scores, 1);
    this.curated = grow(this.curated, 1);
  }
}

const EMPTY = new ScopeCounts();
/** Companies counted per slice of a load's count (an index this size or smaller is counted at once). */
const COUNT_SLICE = 10_000;
const scopeKey = (population: Population, categoryId: string | null) => `${population}:${categoryId ?? ''}`;
const clampScore = (score: number) => Math.max(0, Math.min(100, Math.round(score)));
