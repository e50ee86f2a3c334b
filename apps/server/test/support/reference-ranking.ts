// The from-scratch ranking the service computed before the live index (the full rebuild of every change): every
// company and its history sorted once per population, with 7-day movement. The model test compares every live read
// with it. It shares only the sort definitions of src/leaderboard/ranking.ts (SORTS and the fields its keys read, which
// the cursors carry) and the entry's `company` object (scored-company.ts: the contract's properties, picked). The orders
// are read the plain way: every order here, the rank order included, compares whole key tuples part by part
// (compareBySorts), never through the live index's compiled comparators.
import type { LeaderboardSchemas } from '@arl/contract';
import {
  keyOf, sortFieldsOf, SORTS, WEEK_MS, type HistoryFacts, type Order, type Population, type ScoredCompany, type SortFields, type SortKey, type SortTuple,
} from '../../src/leaderboard/ranking';
import { companyJsonOf } from '../../src/leaderboard/scored-company';

type Entry = LeaderboardSchemas['LeaderboardEntry'];

export interface RankedEntry extends SortFields {
  company: ScoredCompany;
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

/** Two entries' order in (sort, order) as SORTS defines it: their key tuples compared part by part. */
export function compareBySorts(a: SortFields, b: SortFields, sort: SortKey, order: Order): number {
  return compareTuples(keyOf(a, sort), keyOf(b, sort), sort, order);
}

const compareRank = (a: SortFields, b: SortFields) => compareBySorts(a, b, 'score', 'desc');

/** A company with what both populations answer alike, computed once per snapshot. */
interface Row extends SortFields {
  company: ScoredCompany;
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
    const fields = sortFieldsOf(company);
    const then = history.weekAgo.get(company.id);
    const first = history.firstRecordedAt.get(company.id);
    return {
      company,
      ...fields,
      searchKey: `${fields.nameKey}\n${company.domain.toLowerCase()}`,
      // The contract's Company properties, picked the one way the service picks them (scored-company.ts).
      companyJson: companyJsonOf({ ...company, category: company.category && Object.freeze(company.category) }),
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
      return { ...r, row: r, score: then.score, at: then.recordedAt.getTime() };
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
      id: row.id, score: row.score, at: row.at, nameKey: row.nameKey, noCategory: row.noCategory, categoryKey: row.categoryKey,
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
  return { ranked, byDomain: new Map(ranked.map((e) => [e.company.domain, e])), categoryCounts, sorted: new Map() };
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
