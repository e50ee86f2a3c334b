// A sorted list with positions: an order-statistic structure made of sorted chunks (B-tree-like, one level) and a
// Fenwick tree over the chunks' sizes. Insert, remove, "position of" and "element at" cost O(log n) comparisons and
// Fenwick steps plus a splice inside one chunk of at most CHUNK elements, so one company moving in a ranking of
// 1,000,000 costs microseconds instead of a re-sort. The comparator must be a total order over distinct elements
// (the leaderboard's sort keys end with the company id), so an element is found by its key alone.

const CHUNK = 512;

export class SortedList<T> {
  private chunks: T[][] = [];
  /** Fenwick tree (1-based) over chunk sizes. */
  private tree: Int32Array = new Int32Array(1);
  private count = 0;

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.count;
  }

  /** Replaces the contents with `items`, which must already be sorted by the comparator (the start-up path). */
  load(items: T[]): void {
    this.chunks = [];
    for (let i = 0; i < items.length; i += CHUNK / 2) this.chunks.push(items.slice(i, i + CHUNK / 2));
    this.count = items.length;
    this.reindex();
  }

  insert(item: T): void {
    if (this.chunks.length === 0) {
      this.chunks.push([item]);
      this.count = 1;
      this.reindex();
      return;
    }
    const c = Math.min(this.chunkFor(item), this.chunks.length - 1);
    const chunk = this.chunks[c];
    chunk.splice(this.upperIndex(chunk, item), 0, item);
    this.count++;
    if (chunk.length > CHUNK) {
      this.chunks.splice(c + 1, 0, chunk.splice(CHUNK / 2));
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

  private lowerIndex(chunk: T[], item: T): number {
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(chunk[mid], item) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private upperIndex(chunk: T[], item: T): number {
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(chunk[mid], item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Rebuilds the Fenwick tree after chunks were split or dropped (once per CHUNK/2 inserts at most). */
  private reindex(): void {
    const n = this.chunks.length;
    const tree = new Int32Array(n + 1);
    for (let i = 1; i <= n; i++) {
      tree[i] += this.chunks[i - 1].length;
      const parent = i + (i & -i);
      if (parent <= n) tree[parent] += tree[i];
    }
    this.tree = tree;
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
