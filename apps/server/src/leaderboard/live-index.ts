// The ranked leaderboard, kept in memory and changed in place: one company's change (a scan's end, a category
// change, a community company appearing) moves that company in every sorted list it is in, in O(log n) steps each
// (sorted-list.ts), and touches only its own trigrams in the search index. Nothing here is ever rebuilt but by
// `load` (start-up and recovery). Ranks, category ranks and counts are positions and sizes of the lists, computed
// when an entry is answered.
//
// Per population (curated, all) there is a bucket of every ranked company and one per category, each holding the
// company in one list per sort order (score, company, scanned; category asc and desc: the category sort's missing
// category stays last in both orders, so its desc is not the reverse of its asc; the others' desc is read backwards).
// A category filter reads its category's bucket, so a filtered page costs its own entries, not the population.
//
// 7-day movement moves with the clock here, not by rebuilds: each company keeps the scores recorded in the last
// seven days (and the latest before them), and a min-heap holds the times at which one of them will cross the week
// boundary (or its `newThisWeek` will end). Every read first advances the index to its clock (`advance`), which pops
// only the crossings due since the last read: each moves one company in the population's week-ago ranking (O(log n))
// and changes the data version. So a week-ago rank costs O(log n) once per recorded score, ever, instead of a full
// rebuild a minute, and the 7-day fields are exact at every read. (Computing week-ago ranks from each company's
// history at read time would need the week-ago order of everyone anyway; periodic background recomputation would be
// minutes stale and a full pass each time.)
import type { LeaderboardSchemas } from '@arl/contract';
import { MinHeap } from './min-heap';
import {
  comparatorOf, compareToKey, SORTS, sortFieldsOf, WEEK_MS, type Comparator, type HistoryFacts, type HistoryRow, type Keyed, type Order,
  type Population, type ScoredCompany, type SortKey, type SortTuple,
} from './ranking';
import { companyJsonOf, companyOf, type CompanyFacts } from './scored-company';
import { SearchIndex } from './search-index';
import { SortedList, type ChunkSlot } from './sorted-list';

type Entry = LeaderboardSchemas['LeaderboardEntry'];
type Category = LeaderboardSchemas['Category'];

/** A ranked company as the index holds it. */
export interface Item extends Keyed {
  /** Fixed number of the company in the search index. */
  readonly slot: number;
  searchKey: string;
  /** The entry's `company` object, frozen and shared by the answers until the company changes (made when first answered). */
  companyJson: Entry['company'] | null;
  /** Scores from the latest at or before the week boundary on, oldest first. */
  history: HistoryRow[];
  /** When its first score was recorded (ms), if it has any history. */
  first: number | null;
  /** The score the company had at the week boundary (the last history row at or before it). */
  weekAgo: HistoryRow | null;
  // The last entry answered for it per population (frozen; reused while its values are the same), and the index
  // version each was computed at: while it is current, the entry is answered as is. Fields, not a record per
  // population: two objects fewer per company (~80 MB at 1,000,000).
  answeredCurated: Entry | null;
  answeredAll: Entry | null;
  answeredAtCurated: object | null;
  answeredAtAll: object | null;
  // The chunks holding it in the lists its entry's ranks are read from (sorted-list.ts ChunkSlot).
  rankChunkCurated: Item[] | null;
  rankChunkAll: Item[] | null;
  pastChunkCurated: Item[] | null;
  pastChunkAll: Item[] | null;
}

export type { CompanyFacts } from './scored-company';

// The lists, derived from SORTS (ranking.ts): one per sort in its default order (the other order reads it
// backwards), and one per order for a sort with a fixed part (the category sort's missing category stays last in both
// orders, so its desc is not the reverse of its asc). The list named 'score' is the rank order.
const both = (sort: SortKey) => SORTS[sort].parts.some((p) => p.fixed);
const listName = (sort: SortKey, order: Order): string => (both(sort) ? `${sort}:${order}` : sort);
const ORDERS = new Map<string, Comparator<Item>>(
  (Object.keys(SORTS) as SortKey[]).flatMap((sort) =>
    (both(sort) ? (['asc', 'desc'] as const) : [SORTS[sort].defaultOrder]).map((order) => [listName(sort, order), comparatorOf<Item>(sort, order)] as const),
  ),
);
const LISTS = [...ORDERS.keys()];
const byRank = ORDERS.get('score')!;
// The week-ago rank order: the rank order over the score and time of the history row at the week boundary.
const comparePast = comparatorOf<Item>('score', 'desc', { score: 'weekAgo[0]', at: 'weekAgo[1]' });

type Bucket = Record<string, SortedList<Item>>;

/** A bucket's lists; `rankSlot` tracks the rank list's chunks on the items (the population's whole bucket). */
function newBucket(rankSlot: ChunkSlot<Item> | null = null): Bucket {
  return Object.fromEntries(LISTS.map((name) => [name, new SortedList<Item>(ORDERS.get(name)!, name === 'score' ? rankSlot : null)]));
}

const SLOTS: Record<Population, { rank: ChunkSlot<Item>; past: ChunkSlot<Item> }> = {
  curated: {
    rank: { get: (i) => i.rankChunkCurated, set: (i, c) => void (i.rankChunkCurated = c) },
    past: { get: (i) => i.pastChunkCurated, set: (i, c) => void (i.pastChunkCurated = c) },
  },
  all: {
    rank: { get: (i) => i.rankChunkAll, set: (i, c) => void (i.rankChunkAll = c) },
    past: { get: (i) => i.pastChunkAll, set: (i, c) => void (i.pastChunkAll = c) },
  },
};

class PopulationIndex {
  /** '' = every ranked company of the population; otherwise a category id. */
  readonly buckets: Map<string, Bucket>;
  readonly past: SortedList<Item>;

  constructor(population: Population) {
    this.buckets = new Map([['', newBucket(SLOTS[population].rank)]]);
    this.past = new SortedList<Item>(comparePast, SLOTS[population].past);
  }

  bucket(key: string): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = newBucket()));
    return bucket;
  }

  attach(item: Item): void {
    for (const key of this.keysOf(item)) for (const name of LISTS) this.bucket(key)[name].insert(item);
    if (item.weekAgo) this.past.insert(item);
  }

  detach(item: Item): void {
    for (const key of this.keysOf(item)) for (const name of LISTS) this.buckets.get(key)?.[name].remove(item);
    if (item.weekAgo) this.past.remove(item);
  }

  private keysOf(item: Item): string[] {
    return item.company.category ? ['', item.company.category.id] : [''];
  }
}

/** One (sort, order) of a bucket: a list read forwards or backwards. */
interface View {
  list: SortedList<Item>;
  /** The view's order over items. */
  compare: Comparator<Item>;
  reversed: boolean;
  sort: SortKey;
  order: Order;
}

export interface Page {
  items: Item[];
  total: number;
  hasMore: boolean;
}

/** Matches of a search few enough to sort; more are found by walking the sorted list (see `searchPage`). */
const SORT_MATCHES_UP_TO = 2048;

export class LiveIndex {
  private readonly byId = new Map<string, Item>();
  private readonly byDomainMap = new Map<string, Item>();
  private readonly bySlot: Item[] = [];
  private readonly categorySlugs = new Map<string, string>(); // slug -> category id
  private readonly categories = new Map<string, { category: Category; key: string }>();
  private readonly populations: Record<Population, PopulationIndex> = { curated: new PopulationIndex('curated'), all: new PopulationIndex('all') };
  private readonly search = new SearchIndex();
  /** searchPage's marks: `wanted[slot] === stamp` for the matches of the search in progress. */
  private wanted = new Uint32Array(0);
  private stamp = 0;
  /** Times (ms) at which a company's 7-day facts change. */
  private readonly due = new MinHeap<Item>();
  private clockMs: number;
  /** Identifies the data answers are computed from; replaced by every change (response-cache tag). */
  version: object = {};

  constructor(now: Date) {
    this.clockMs = now.getTime();
  }

  get boundary(): number {
    return this.clockMs - WEEK_MS;
  }

  /** The start-up (and recovery) path: every ranked company at once, each list sorted once. */
  static load(companies: ScoredCompany[], history: HistoryFacts, now: Date): LiveIndex {
    const index = new LiveIndex(now);
    const items = companies.map((company) => {
      const then = history.weekAgo.get(company.id);
      const rows: HistoryRow[] = then ? [[then.score, then.recordedAt.getTime()]] : [];
      rows.push(...(history.recent.get(company.id) ?? []));
      return index.create(company, rows, history.firstRecordedAt.get(company.id)?.getTime() ?? null);
    });
    for (const item of items) index.weekFacts(item);
    for (const name of LISTS) {
      const sorted = [...items].sort(ORDERS.get(name));
      for (const [population, view] of Object.entries(index.populations) as Array<[Population, PopulationIndex]>) {
        const members = population === 'all' ? sorted : sorted.filter((i) => i.company.source === 'curated');
        // A sorted list filtered keeps its order: the category buckets come from the same sort.
        const byCategory = new Map<string, Item[]>();
        for (const item of members) {
          const id = item.company.category?.id;
          if (!id) continue;
          let list = byCategory.get(id);
          if (!list) byCategory.set(id, (list = []));
          list.push(item);
        }
        view.bucket('')[name].load(members);
        for (const [id, list] of byCategory) view.bucket(id)[name].load(list);
      }
    }
    const past = items.filter((i) => i.weekAgo).sort(comparePast);
    index.populations.all.past.load(past);
    index.populations.curated.past.load(past.filter((i) => i.company.source === 'curated'));
    index.search.trim();
    return index;
  }

  /** Applies one company's new facts; false when they are older than what the index holds (a late notification). */
  upsert(facts: CompanyFacts): boolean {
    const company = companyOf(facts);
    let item = this.byId.get(facts.id);
    if (item && company.scannedAt.getTime() < item.company.scannedAt.getTime()) return false;
    if (item) {
      // Out of every list under its old keys, changed, and back in under the new ones.
      this.populationsOf(item).forEach((p) => p.detach(item!));
      if (item.company.domain !== company.domain) this.byDomainMap.delete(item.company.domain);
      this.describe(item, company);
      item.history = facts.history.slice();
      item.first = facts.firstRecordedAt;
      this.byDomainMap.set(company.domain, item);
    } else {
      item = this.create(company, facts.history.slice(), facts.firstRecordedAt);
    }
    this.weekFacts(item);
    this.populationsOf(item).forEach((p) => p.attach(item!));
    this.search.set(item.slot, item.searchKey);
    this.version = {};
    return true;
  }

  /**
   * Moves the index's clock to `now`: the 7-day facts due since the last call change (each in O(log n)). A clock
   * that went back changes nothing (the facts stay those of the latest time seen).
   */
  advance(now: Date): void {
    const ms = now.getTime();
    if (ms <= this.clockMs) return;
    this.clockMs = ms;
    let changed = false;
    while (this.due.size > 0 && this.due.peekTime() <= ms) {
      const item = this.due.pop();
      const before = item.weekAgo;
      if (this.pastRow(item) !== before) {
        const populations = this.populationsOf(item);
        if (before) populations.forEach((p) => p.past.remove(item));
        item.weekAgo = this.pastRow(item);
        populations.forEach((p) => p.past.insert(item));
        // Rows before the new week-ago row can never matter again.
        item.history = item.history.slice(item.history.indexOf(item.weekAgo!));
      }
      changed = true; // a score crossed the boundary or `newThisWeek` ended
    }
    if (changed) this.version = {};
  }

  byCompanyId(id: string): Item | undefined {
    return this.byId.get(id);
  }

  byDomain(domain: string): Item | undefined {
    return this.byDomainMap.get(domain);
  }

  items(): IterableIterator<Item> {
    return this.byId.values();
  }

  /** Number of ranked companies of the population (and of one category in it). */
  size(population: Population, categoryId?: string): number {
    return this.populations[population].buckets.get(categoryId ?? '')?.score.size ?? 0;
  }

  /** Whether the company is ranked in the population. */
  inPopulation(item: Item, population: Population): boolean {
    return population === 'all' || item.company.source === 'curated';
  }

  rank(item: Item, population: Population): number {
    return this.populations[population].buckets.get('')!.score.indexOf(item) + 1;
  }

  /**
   * The rank the company would have in the population with these facts, before they are applied (null: not in the
   * population): the companies ahead of its new sort key, itself excepted. The transaction that ends a scan records
   * it on the history point, so the point's rank needs no statement after the commit.
   */
  rankIf(facts: CompanyFacts, population: Population): number | null {
    if (population === 'curated' && facts.source !== 'curated') return null;
    const probe = { score: facts.score, at: facts.scannedAt, nameKey: facts.name.toLowerCase(), id: facts.id } as Item;
    const list = this.populations[population].buckets.get('')!.score;
    const ahead = list.countUpTo((e) => (byRank(e, probe) < 0 ? 0 : 1));
    const old = this.byId.get(facts.id);
    const oldAhead = old !== undefined && this.inPopulation(old, population) && byRank(old, probe) < 0;
    return ahead - (oldAhead ? 1 : 0) + 1;
  }

  categoryRank(item: Item, population: Population): number | null {
    const category = item.company.category;
    return category ? this.populations[population].buckets.get(category.id)!.score.indexOf(item) + 1 : null;
  }

  /** The entry answered for the company in the population, as of the index's clock. */
  entry(item: Item, population: Population): Entry {
    const curated = population === 'curated';
    const last = curated ? item.answeredCurated : item.answeredAll;
    if (last && (curated ? item.answeredAtCurated : item.answeredAtAll) === this.version) return last;
    const { company } = item;
    const rank = this.rank(item, population);
    const then = item.weekAgo;
    const before = then ? this.populations[population].past.indexOf(item) + 1 : 0;
    const scoreChange7d = then ? company.score - then[0] : null;
    const rankChange7d = before !== 0 ? before - rank : null;
    const newThisWeek = (item.first ?? company.scannedAt.getTime()) > this.boundary;
    if (curated) item.answeredAtCurated = this.version;
    else item.answeredAtAll = this.version;
    if (last && last.rank === rank && last.scoreChange7d === scoreChange7d && last.rankChange7d === rankChange7d && last.newThisWeek === newThisWeek) {
      return last;
    }
    // Frozen: the answer path remembers a frozen entry's JSON text and its verdict against the contract by identity
    // (http/frozen-memo.ts), so an entry listed again unchanged costs a lookup.
    const entry: Entry = Object.freeze({
      rank,
      company: (item.companyJson ??= companyJsonOf(company)),
      score: company.score,
      grade: company.grade,
      scoreChange7d,
      rankChange7d,
      newThisWeek,
      scannedAt: company.scannedAt.toISOString(),
    });
    if (curated) item.answeredCurated = entry;
    else item.answeredAll = entry;
    return entry;
  }

  /** One page of the list: the entries after `after` (a cursor's key) matching `q` and the category slug. */
  page(population: Population, sort: SortKey, order: Order, q: string | null, categorySlug: string | null, after: SortTuple | null, limit: number): Page {
    const pop = this.populations[population];
    let bucketKey = '';
    if (categorySlug !== null) {
      const id = this.categorySlugs.get(categorySlug);
      if (id === undefined || !pop.buckets.has(id)) return { items: [], total: 0, hasMore: false };
      bucketKey = id;
    }
    const view = viewOf(pop.bucket(bucketKey), sort, order);
    if (q !== null) return this.searchPage(view, population, q, bucketKey, after, limit);
    const size = view.list.size;
    const start = after ? indexAfter(view, after) : 0;
    const items: Item[] = [];
    for (let i = start; i < size && items.length < limit; i++) items.push(at(view, i));
    return { items, total: size, hasMore: start + limit < size };
  }

  /**
   * A search page: the matches come from the trigram index; when few remain after the cursor they are sorted, else
   * the sorted list is walked from the cursor keeping the matches (a broad search then reads about
   * limit x population / matches entries).
   */
  private searchPage(view: View, population: Population, q: string, bucketKey: string, after: SortTuple | null, limit: number): Page {
    const matches: Item[] = [];
    for (const slot of this.search.search(q)) {
      const item = this.bySlot[slot];
      if (!this.inPopulation(item, population) || (bucketKey !== '' && item.company.category?.id !== bucketKey)) continue;
      matches.push(item);
    }
    const remaining = after ? matches.filter((e) => compareToKey(e, after, view.sort, view.order) > 0) : matches;
    let items: Item[];
    if (remaining.length <= SORT_MATCHES_UP_TO || remaining.length <= limit) {
      items = remaining.sort(view.compare).slice(0, limit);
    } else {
      // Marks by slot in one array kept across searches, stamped per search: a fresh array per request was a
      // zeroed megabyte at 1,000,000 companies.
      const stamp = this.nextStamp();
      const wanted = this.wanted;
      for (const e of remaining) wanted[e.slot] = stamp;
      items = [];
      for (let i = after ? indexAfter(view, after) : 0; i < view.list.size && items.length < limit; i++) {
        const e = at(view, i);
        if (wanted[e.slot] === stamp) items.push(e);
      }
    }
    return { items, total: matches.length, hasMore: remaining.length > limit };
  }

  /** A stamp no slot of `wanted` holds yet (the array grows with the slots; it is cleared when the stamps wrap). */
  private nextStamp(): number {
    if (this.wanted.length < this.bySlot.length) this.wanted = new Uint32Array(Math.max(this.bySlot.length, this.wanted.length * 2));
    if (this.stamp === 0xffffffff) {
      this.wanted.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  private create(company: ScoredCompany, history: HistoryRow[], first: number | null): Item {
    const item = {
      slot: this.bySlot.length, history, first, weekAgo: null,
      rankChunkCurated: null, rankChunkAll: null, pastChunkCurated: null, pastChunkAll: null,
    } as unknown as Item;
    this.describe(item, company);
    this.bySlot.push(item);
    this.byId.set(company.id, item);
    this.byDomainMap.set(company.domain, item);
    this.search.set(item.slot, item.searchKey);
    return item;
  }

  /** Gives the item the company's facts (and what is derived from them). */
  private describe(item: Item, company: ScoredCompany): void {
    const category = company.category && this.internCategory(company.category);
    company.category = category?.category ?? null;
    item.company = company;
    // The sort fields (ranking.ts), the category's key shared by its companies.
    const fields = sortFieldsOf(company, category?.key);
    item.id = fields.id;
    item.score = fields.score;
    item.at = fields.at;
    item.noCategory = fields.noCategory;
    item.categoryKey = fields.categoryKey;
    item.nameKey = fields.nameKey;
    item.searchKey = `${item.nameKey}\n${company.domain.toLowerCase()}`;
    item.companyJson = null;
    item.answeredCurated = item.answeredAll = null;
    item.answeredAtCurated = item.answeredAtAll = null;
  }

  /**
   * One frozen object (and lower-cased sort key) per category, shared by its companies: the database hands every
   * row its own copy (~200 bytes a company at 1,000,000).
   */
  private internCategory(category: Category): { category: Category; key: string } {
    const known = this.categories.get(category.id);
    if (known && known.category.name === category.name && known.category.slug === category.slug) return known;
    const interned = { category: Object.freeze({ id: category.id, name: category.name, slug: category.slug }), key: category.name.toLowerCase() };
    this.categories.set(category.id, interned);
    this.categorySlugs.set(category.slug, category.id);
    return interned;
  }

  /** Sets the item's week-ago row as of the index's clock and schedules the times its 7-day facts change. */
  private weekFacts(item: Item): void {
    item.weekAgo = this.pastRow(item);
    const boundary = this.boundary;
    if (item.weekAgo) item.history = item.history.slice(item.history.indexOf(item.weekAgo));
    for (const [, at] of item.history) if (at > boundary) this.due.push(at + WEEK_MS, item);
    const since = item.first ?? item.company.scannedAt.getTime();
    if (since > boundary) this.due.push(since + WEEK_MS, item);
  }

  /** The last history row recorded at or before the week boundary. */
  private pastRow(item: Item): HistoryRow | null {
    const boundary = this.boundary;
    let found: HistoryRow | null = null;
    for (const row of item.history) if (row[1] <= boundary) found = row;
    return found;
  }

  private populationsOf(item: Item): PopulationIndex[] {
    return item.company.source === 'curated' ? [this.populations.all, this.populations.curated] : [this.populations.all];
  }
}

function viewOf(bucket: Bucket, sort: SortKey, order: Order): View {
  const reversed = !both(sort) && order !== SORTS[sort].defaultOrder;
  const name = listName(sort, order);
  const forward = ORDERS.get(name)!;
  return { list: bucket[name], compare: reversed ? (a, b) => forward(b, a) : forward, reversed, sort, order };
}

function at(view: View, i: number): Item {
  return view.list.at(view.reversed ? view.list.size - 1 - i : i);
}

/** Position in the view of the first entry strictly after `key`. */
function indexAfter(view: View, key: SortTuple): number {
  const { list, sort, order } = view;
  if (!view.reversed) return list.countUpTo((e) => compareToKey(e, key, sort, order));
  // Read backwards: the entries at or before `key` in the view are those not before it in the list's order.
  return list.size - list.countUpTo((e) => (compareToKey(e, key, sort, order) > 0 ? 0 : 1));
}
