// The ranking's definitions: what a scored company is, the rank order and the sort orders of the list, and the keys
// keyset cursors carry. The live index (live-index.ts) keeps companies in these orders as they change.
import type { LeaderboardOperations, LeaderboardSchemas } from '@arl/contract';

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

/** One recorded score: [score, recorded at (ms since the epoch)]. */
export type HistoryRow = [score: number, at: number];

export interface HistoryFacts {
  /** Latest score at or before the week boundary (now - 7 days), with when it was recorded. */
  weekAgo: Map<string, { score: number; recordedAt: Date }>;
  /** When each company's first score was recorded. */
  firstRecordedAt: Map<string, Date>;
  /** Scores recorded after the week boundary, per company, oldest first (they cross it as the clock moves). */
  recent: Map<string, HistoryRow[]>;
}

/** What the sort keys read: a company and its lower-cased name. */
export interface Keyed {
  company: ScoredCompany;
  nameKey: string;
}

/** One component of a sort key. `fixed` components keep their direction whatever the order (nulls last). */
interface KeyPart {
  get(entry: Keyed): string | number;
  dir: 1 | -1;
  fixed?: boolean;
}

// The rank order: higher score first; on equal scores the company that reached its score first keeps the better rank;
// then name (case-insensitive), then id, so the order is total and stable.
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

export function keyOf(entry: Keyed, sort: SortKey): SortTuple {
  return SORTS[sort].parts.map((p) => p.get(entry));
}

export function compareTuples(a: SortTuple, b: SortTuple, sort: SortKey, order: Order): number {
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

/** An entry's position against a cursor's key in (sort, order), without building the entry's key. */
export function compareToKey(entry: Keyed, key: SortTuple, sort: SortKey, order: Order): number {
  const { parts, defaultOrder } = SORTS[sort];
  const flip = order === defaultOrder ? 1 : -1;
  for (let i = 0; i < parts.length; i++) {
    const x = parts[i].get(entry);
    const y = key[i];
    if (x === y) continue;
    const base = x < y ? -1 : 1;
    return base * parts[i].dir * (parts[i].fixed ? 1 : flip);
  }
  return 0;
}

/** The comparator of two entries in (sort, order). */
export function comparator(sort: SortKey, order: Order): (a: Keyed, b: Keyed) => number {
  const { parts, defaultOrder } = SORTS[sort];
  const flip = order === defaultOrder ? 1 : -1;
  return (a, b) => {
    for (let i = 0; i < parts.length; i++) {
      const x = parts[i].get(a);
      const y = parts[i].get(b);
      if (x === y) continue;
      const base = x < y ? -1 : 1;
      return base * parts[i].dir * (parts[i].fixed ? 1 : flip);
    }
    return 0;
  };
}
