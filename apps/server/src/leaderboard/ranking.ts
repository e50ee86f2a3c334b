// The ranking's definitions: the rank order and the sort orders of the list, and the keys keyset cursors carry (what a
// scored company is: scored-company.ts). The live index (live-index.ts) keeps companies in these orders as they change.
import type { LeaderboardOperations } from '@arl/contract';
import type { ScoredCompany } from './scored-company';

export const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export type Population = 'curated' | 'all';
type ListQuery = NonNullable<LeaderboardOperations['listLeaderboard']['parameters']['query']>;
export type SortKey = NonNullable<ListQuery['sort']>;
export type Order = NonNullable<ListQuery['order']>;

export type { ScoredCompany } from './scored-company';

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

/**
 * What the sort keys read, as plain fields of the entry: the live index keeps them on its items (a change compares a
 * few hundred times, a search sorts its matches), the reference ranking of the tests computes them the same way.
 */
export interface SortFields {
  id: string;
  score: number;
  /** When the company reached its score (ms since the epoch). */
  at: number;
  nameKey: string;
  /** 0 with a category, 1 without (the category sort's fixed first part: no category stays last). */
  noCategory: number;
  categoryKey: string;
}

/** A company with its sort fields. */
export interface Keyed extends SortFields {
  company: ScoredCompany;
}

/** The sort fields of a company (`categoryKey`: a caller that interns the category passes its shared key). */
export function sortFieldsOf(company: ScoredCompany, categoryKey = company.category?.name.toLowerCase() ?? ''): SortFields {
  return {
    id: company.id,
    score: company.score,
    at: company.scannedAt.getTime(),
    nameKey: company.name.toLowerCase(),
    noCategory: company.category ? 0 : 1,
    categoryKey: company.category ? categoryKey : '',
  };
}

/** One component of a sort key. `fixed` components keep their direction whatever the order (nulls last). */
interface KeyPart {
  field: keyof SortFields;
  dir: 1 | -1;
  fixed?: boolean;
}

// The rank order: higher score first; on equal scores the company that reached its score first keeps the better rank;
// then name (case-insensitive), then id, so the order is total and stable.
const byRank: KeyPart[] = [
  { field: 'score', dir: -1 },
  { field: 'at', dir: 1 },
  { field: 'nameKey', dir: 1 },
  { field: 'id', dir: 1 },
];

/**
 * Sort definitions in their default direction; `order` flips every non-fixed part. The one definition of every order:
 * the cursors' keys, the live index's lists (comparatorOf) and the tests' reference ranking all read it.
 */
export const SORTS: Record<SortKey, { defaultOrder: Order; parts: KeyPart[] }> = {
  score: { defaultOrder: 'desc', parts: byRank },
  company: { defaultOrder: 'asc', parts: [{ field: 'nameKey', dir: 1 }, { field: 'id', dir: 1 }] },
  category: { defaultOrder: 'asc', parts: [{ field: 'noCategory', dir: 1, fixed: true }, { field: 'categoryKey', dir: 1 }, ...byRank] },
  scanned: { defaultOrder: 'desc', parts: [{ field: 'at', dir: -1 }, { field: 'id', dir: 1 }] },
};

export type SortTuple = Array<string | number>;

export function keyOf(entry: SortFields, sort: SortKey): SortTuple {
  return SORTS[sort].parts.map((p) => entry[p.field]);
}

/** An entry's position against a cursor's key in (sort, order), without building the entry's key. */
export function compareToKey(entry: SortFields, key: SortTuple, sort: SortKey, order: Order): number {
  const { parts, defaultOrder } = SORTS[sort];
  const flip = order === defaultOrder ? 1 : -1;
  for (let i = 0; i < parts.length; i++) {
    const x = entry[parts[i].field];
    const y = key[i];
    if (x === y) continue;
    const base = x < y ? -1 : 1;
    return base * parts[i].dir * (parts[i].fixed ? 1 : flip);
  }
  return 0;
}

export type Comparator<T> = (a: T, b: T) => number;

/**
 * The order (sort, order) of SORTS as one comparator of plain field reads, compiled once: the loop over the parts
 * (compareToKey) reads each field through a dynamic key, several times slower, and the live index compares a few
 * hundred times per change and sorts a search's matches with these. `read` renames fields to other property paths
 * of the same entry (the week-ago rank order reads the score and time of the week-ago history row).
 */
export function comparatorOf<T = SortFields>(sort: SortKey, order: Order, read: Partial<Record<keyof SortFields, string>> = {}): Comparator<T> {
  const { parts, defaultOrder } = SORTS[sort];
  const flip = order === defaultOrder ? 1 : -1;
  const body = parts.map((p) => {
    const path = read[p.field] ?? p.field;
    if (!/^[A-Za-z]\w*(\[\d+\])?$/.test(path)) throw new Error(`not a property path: ${path}`);
    const before = p.dir * (p.fixed ? 1 : flip) === 1 ? -1 : 1;
    return `if (a.${path} !== b.${path}) return a.${path} < b.${path} ? ${before} : ${-before};`;
  });
  // Built from SORTS above and checked paths only, never from input.
  return new Function('a', 'b', `${body.join('\n')}\nreturn 0;`) as Comparator<T>;
}
