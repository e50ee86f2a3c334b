// A sorted list with positions: an order-statistic structure made of sorted chunks (B-tree-like, one level) and a
// Fenwick tree over the chunks' sizes. Insert, remove, "position of" and "element at" cost O(log n) comparisons and
// Fenwick steps plus a splice inside one chunk of at most CHUNK elements, so one company moving in a ranking of
// 1,000,000 costs microseconds instead of a re-sort. The comparator must be a total order over distinct elements
// (the leaderboard's sort keys end with the company id), so an element is found by its key alone.

const CHUNK = 512;

/**
 * Where a list keeps, on each element, the chunk holding it. With it `indexOf` finds an element by identity in its
 * chunk instead of by comparisons from the top: at 1,000,000 companies the ~20 comparisons of a lookup each touch
 * other companies' objects spread over a 2 GB heap (cache misses: ~15 us per rank of a company not read before),
 * while one chunk is 4 KB of pointers.
 */
export interface ChunkSlot<T> {
  get(item: T): T[] | null;
  set(item: T, chunk: T[]): void;
}

export class SortedList<T> {
  private chunks: T[][] = [];
  /** Position of each chunk in `chunks` (rebuilt with the Fenwick tree), for tracked lookups. */
  private chunkIndex = new Map<T[], number>();
  /** Fenwick tree (1-based) over chunk sizes. */
  private tree: Int32Array = new Int32Array(1);
  private count = 0;

  constructor(
    private readonly compare: (a: T, b: T) => number,
    private readonly slot: ChunkSlot<T> | null = null,
  ) {}

  get size(): number {
    return this.count;
  }

  /** Replaces the contents with `items`, which must already be sorted by the comparator (the start-up path). */
  load(items: T[]): void {
    this.chunks = [];
    for (let i = 0; i < items.length; i += CHUNK / 2) this.chunks.push(this.placed(items.slice(i, i + CHUNK / 2)));
    this.count = items.length;
    this.reindex();
  }

  insert(item: T): void {
    if (this.chunks.length === 0) {
      this.chunks.push(this.placed([item]));
      this.count = 1;
      this.reindex();
      return;
    }
    const c = Math.min(this.chunkFor(item), this.chunks.length - 1);
    const chunk = this.chunks[c];
    chunk.splice(this.lowerIndex(chunk, item, true), 0, item);
    this.slot?.set(item, chunk);
    this.count++;
    if (chunk.length > CHUNK) {
      this.chunks.splice(c + 1, 0, this.placed(chunk.splice(CHUNK / 2)));
      this.reindex();
    } else this.add(c, 1);
  }

  /** Removes the element equal to `item` (by the comparator); false when there is none. */
  remove(item: T): boolean {
    const c = this.chunkFor(item);
    const chunk = this.chunks[c];
    if (!chunk) return false;
    const i = this.lowerIndex(chunk, item);
    if (i >= chunk.length || this.compare(chunk[i], item) !== 0) return false;
    chunk.splice(i, 1);
    this.count--;
    if (chunk.length === 0) {
      this.chunks.splice(c, 1);
      this.reindex();
    } else this.add(c, -1);
    return true;
  }

  /** The position of the element equal to `item`, or -1. */
  indexOf(item: T): number {
    const held = this.slot?.get(item);
    if (held) {
      const c = this.chunkIndex.get(held);
      // Identity within the chunk the element was last placed in; a stale slot (removed since) falls through.
      const i = c === undefined ? -1 : held.indexOf(item);
      if (i >= 0) return this.prefix(c!) + i;
    }
    const c = this.chunkFor(item);
    const chunk = this.chunks[c];
    if (!chunk) return -1;
    const i = this.lowerIndex(chunk, item);
    if (i >= chunk.length || this.compare(chunk[i], item) !== 0) return -1;
    return this.prefix(c) + i;
  }

  /** The element at position `index` (0 <= index < size). */
  at(index: number): T {
    // Fenwick descent: the chunk holding the index-th element.
    let c = 0;
    let rest = index;
    for (let step = highBit(this.chunks.length); step > 0; step >>= 1) {
      const next = c + step;
      if (next <= this.chunks.length && this.tree[next] <= rest) {
        c = next;
        rest -= this.tree[next];
      }
    }
    return this.chunks[c][rest];
  }

  /** Number of elements e with `probe(e) <= 0` (probe is monotone over the order: <= 0 up to a point, then > 0). */
  countUpTo(probe: (e: T) => number): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid];
      if (probe(chunk[chunk.length - 1]) <= 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.chunks.length) return this.count;
    const chunk = this.chunks[lo];
    let a = 0;
    let b = chunk.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (probe(chunk[mid]) <= 0) a = mid + 1;
      else b = mid;
    }
    return this.prefix(lo) + a;
  }

  /** Every element in order (tests, rebuilds). */
  *[Symbol.iterator](): Iterator<T> {
    for (const chunk of this.chunks) yield* chunk;
  }

  /** Index of the chunk whose range holds `item`: the first chunk whose last element is >= item. */
  private chunkFor(item: T): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid];
      if (this.compare(chunk[chunk.length - 1], item) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of the first element >= item (or > item when `after`) in a chunk. */
  private lowerIndex(chunk: T[], item: T, after = false): number {
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.compare(chunk[mid], item);
      if (c < 0 || (after && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Rebuilds the Fenwick tree after chunks were split or dropped (once per CHUNK/2 inserts at most). */
  private reindex(): void {
    const n = this.chunks.length;
    if (this.slot) this.chunkIndex = new Map(this.chunks.map((chunk, i) => [chunk, i]));
    const tree = new Int32Array(n + 1);
    for (let i = 1; i <= n; i++) {
      tree[i] += this.chunks[i - 1].length;
      const parent = i + (i & -i);
      if (parent <= n) tree[parent] += tree[i];
    }
    this.tree = tree;
  }

  /** Records the chunk on each of its elements (tracked lists). */
  private placed(chunk: T[]): T[] {
    if (this.slot) for (const item of chunk) this.slot.set(item, chunk);
    return chunk;
  }

  private add(chunk: number, delta: number): void {
    for (let i = chunk + 1; i < this.tree.length; i += i & -i) this.tree[i] += delta;
  }

  /** Elements in the chunks before `chunk`. */
  private prefix(chunk: number): number {
    let sum = 0;
    for (let i = chunk; i > 0; i -= i & -i) sum += this.tree[i];
    return sum;
  }
}

function highBit(n: number): number {
  let bit = 1;
  while (bit * 2 <= n) bit *= 2;
  return n === 0 ? 0 : bit;
}
