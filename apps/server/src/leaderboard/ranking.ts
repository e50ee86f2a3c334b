// Pure ranking: from scored companies and their score history to ranked populations with 7-day movement.
// Computed once per change of the data (see service.ts), never per request.
import type { LeaderboardOperations, LeaderboardSchemas } from '@arl/contract';
import { SearchIndex } from './search-index';

export const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export type Population = 'curated' | 'all';
type ListQuery = NonNullable<LeaderboardOperations['listLeaderboard']['parameters']['query']>;
export type SortKey = NonNullable<ListQuery['sort']>;
export type Order = NonNullable<ListQuery['order']>;
type Category = LeaderboardSchemas['Category'];
type Entry = LeaderboardSchemas['LeaderboardEntry'];

export interface ScoredCompany {
  id: string;
  name: string;
  website: string;
  domain: string;
  source: 'curated' | 'community';
  category: Category | null;
  score: number;
  grade: Entry['grade'];
  scannedAt: Date;
  /** The company's own summary (the company read answers it). */
  summary: string | null;
  /** Its latest scan, whose layers and checks the company read answers (see scan-details.ts). */
  latestScanId: string | null;
}

export interface HistoryFacts {
  /** Latest score at or before the week boundary (now - 7 days), with when it was recorded. */
  weekAgo: Map<string, { score: number; recordedAt: Date }>;
  /** When each company's first score was recorded. */
  firstRecordedAt: Map<string, Date>;
}

export interface RankedEntry {
  company: ScoredCompany;
  nameKey: string;
  searchKey: string;
  rank: number;
  categoryRank: number | null;
  json: Entry;
}

export interface PopulationView {
  /** Entries in rank order (rank = index + 1). */
  ranked: RankedEntry[];
  byDomain: Map<string, RankedEntry>;
  categoryCounts: Map<string, number>;
  /** Sorted views, built on first use. */
  sorted: Map<string, SortedView>;
  /** Substring index over the search keys in rank order, built on first use. */
  search: SearchIndex | null;
}

/** One sort order of a population, with what filtered pages need to avoid reading the whole list. */
export interface SortedView {
  list: RankedEntry[];
  /** positionOf[rank - 1] = index of that entry in `list`. */
  positionOf: Int32Array;
  /** Category slug -> ascending indexes in `list` of that category's entries (built per slug on first use). */
  byCategory: Map<string, Int32Array>;
}

export interface Snapshot {
  builtAt: Date;
  populations: Record<Population, PopulationView>;
}

// The rank order: higher score first; on equal scores the company that reached its score first keeps the better rank;
// then name (case-insensitive), then id, so the order is total and stable.
function compareRank(a: { score: number; at: number; nameKey: string; id: string }, b: typeof a): number {
  return b.score - a.score || a.at - b.at || (a.nameKey < b.nameKey ? -1 : a.nameKey > b.nameKey ? 1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** A company with what both populations answer alike, computed once per snapshot. */
interface Row {
  company: ScoredCompany;
  id: string;
  score: number;
  at: number;
  nameKey: string;
  searchKey: string;
  /** The entry's `company` object, shared by both populations' entries (frozen: see `json` below). */
  companyJson: Entry['company'];
  scoreChange7d: number | null;
  newThisWeek: boolean;
  scannedAt: string;
  /** Position of the row in the rank order of all companies. */
  index: number;
}

// The rank order is a total order over the companies' own facts, so a population's ranking is the full ranking with
// the other companies left out (the same holds for the ranking a week ago): both populations are built from one sort
// of all companies, and everything but the ranks is computed once and shared (the 100,000-company rebuild runs on
// the thread that answers reads).
export function buildSnapshot(companies: ScoredCompany[], history: HistoryFacts, now: Date): Snapshot {
  const weekBoundary = now.getTime() - WEEK_MS;
  const rows: Row[] = companies.map((company) => {
    const nameKey = company.name.toLowerCase();
    const then = history.weekAgo.get(company.id);
    const first = history.firstRecordedAt.get(company.id);
    return {
      company,
      id: company.id,
      score: company.score,
      at: company.scannedAt.getTime(),
      nameKey,
      searchKey: `${nameKey}\n${company.domain.toLowerCase()}`,
      companyJson: Object.freeze({
        id: company.id,
        name: company.name,
        website: company.website,
        domain: company.domain,
        category: company.category && Object.freeze(company.category),
        source: company.source,
      }),
      scoreChange7d: then ? company.score - then.score : null,
      newThisWeek: (first ?? company.scannedAt).getTime() > weekBoundary,
      scannedAt: company.scannedAt.toISOString(),
      index: 0,
    };
  });
  rows.sort(compareRank);
  rows.forEach((row, index) => (row.index = index));

  // The order a week ago, from the scores the companies had then (companies without a score then are not ranked).
  const past = rows
    .filter((r) => history.weekAgo.has(r.id))
    .map((r) => {
      const then = history.weekAgo.get(r.id)!;
      return { row: r, id: r.id, score: then.score, at: then.recordedAt.getTime(), nameKey: r.nameKey };
    })
    .sort(compareRank)
    .map((p) => p.row);

  const isCurated = (r: Row) => r.company.source === 'curated';
  const all = buildPopulation(rows, past, rows.length);
  const curated = buildPopulation(rows.filter(isCurated), past.filter(isCurated), rows.length);
  return { builtAt: now, populations: { curated, all } };
}

/** `rows` in rank order and `past` (the rows ranked a week ago) in that order, both of the same population. */
function buildPopulation(rows: Row[], past: Row[], allRows: number): PopulationView {
  const pastRank = new Int32Array(allRows); // by row index; 0 = not ranked a week ago
  past.forEach((r, i) => (pastRank[r.index] = i + 1));

  const categoryCounts = new Map<string, number>();
  const ranked: RankedEntry[] = rows.map((row, index) => {
    const { company } = row;
    let categoryRank: number | null = null;
    if (company.category) {
      categoryRank = (categoryCounts.get(company.category.id) ?? 0) + 1;
      categoryCounts.set(company.category.id, categoryRank);
    }
    const rank = index + 1;
    const before = pastRank[row.index];
    return {
      company,
      nameKey: row.nameKey,
      searchKey: row.searchKey,
      rank,
      categoryRank,
      // Frozen all the way down: every page listing the entry shares it, and the answer path remembers its JSON
      // text and its verdict against the contract by identity (http/frozen-memo.ts).
      json: Object.freeze({
        rank,
        company: row.companyJson,
        score: company.score,
        grade: company.grade,
        scoreChange7d: row.scoreChange7d,
        rankChange7d: before !== 0 ? before - rank : null,
        newThisWeek: row.newThisWeek,
        scannedAt: row.scannedAt,
      }),
    };
  });
  return { ranked, byDomain: new Map(ranked.map((e) => [e.company.domain, e])), categoryCounts, sorted: new Map(), search: null };
}

// ---- Sorting and keyset cursors ----

/** One component of a sort key. `fixed` components keep their direction whatever the order (nulls last). */
interface KeyPart {
  get(entry: RankedEntry): string | number;
  dir: 1 | -1;
  fixed?: boolean;
}

const byRank: KeyPart[] = [
  { get: (e) => e.company.score, dir: -1 },
  { get: (e) => e.company.scannedAt.getTime(), dir: 1 },
  { get: (e) => e.nameKey, dir: 1 },
  { get: (e) => e.company.id, dir: 1 },
];

/** Sort definitions in their default direction; `order` flips every non-fixed part. */
export const SORTS: Record<SortKey, { defaultOrder: Order; parts: KeyPart[] }> = {
  score: { defaultOrder: 'desc', parts: byRank },
  company: { defaultOrder: 'asc', parts: [{ get: (e) => e.nameKey, dir: 1 }, { get: (e) => e.company.id, dir: 1 }] },
  category: {
    defaultOrder: 'asc',
    parts: [{ get: (e) => (e.company.category ? 0 : 1), dir: 1, fixed: true }, { get: (e) => e.company.category?.name.toLowerCase() ?? '', dir: 1 }, ...byRank],
  },
  scanned: { defaultOrder: 'desc', parts: [{ get: (e) => e.company.scannedAt.getTime(), dir: -1 }, { get: (e) => e.company.id, dir: 1 }] },
};

export type SortTuple = Array<string | number>;

export function keyOf(entry: RankedEntry, sort: SortKey): SortTuple {
  return SORTS[sort].parts.map((p) => p.get(entry));
}

function compareTuples(a: SortTuple, b: SortTuple, sort: SortKey, order: Order): number {
  const { parts, defaultOrder } = SORTS[sort];
  const flip = order === defaultOrder ? 1 : -1;
  for (let i = 0; i < parts.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    const base = x < y ? -1 : 1;
    return base * parts[i].dir * (parts[i].fixed ? 1 : flip);
  }
  return 0;
}

export function sortedView(view: PopulationView, sort: SortKey, order: Order): SortedView {
  const id = `${sort}:${order}`;
  let sorted = view.sorted.get(id);
  if (!sorted) {
    let list: RankedEntry[];
    if (sort === 'score' && order === 'desc') list = view.ranked;
    else {
      const keyed = view.ranked.map((e) => ({ e, k: keyOf(e, sort) }));
      keyed.sort((a, b) => compareTuples(a.k, b.k, sort, order));
      list = keyed.map((x) => x.e);
    }
    const positionOf = new Int32Array(list.length);
    for (let i = 0; i < list.length; i++) positionOf[list[i].rank - 1] = i;
    sorted = { list, positionOf, byCategory: new Map() };
    view.sorted.set(id, sorted);
  }
  return sorted;
}

export function searchIndex(view: PopulationView): SearchIndex {
  view.search ??= new SearchIndex(view.ranked.map((e) => e.searchKey));
  return view.search;
}

/** Index of the first entry strictly after `key` in the sorted list (binary search). */
export function indexAfter(list: RankedEntry[], key: SortTuple, sort: SortKey, order: Order): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareTuples(keyOf(list[mid], sort), key, sort, order) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
