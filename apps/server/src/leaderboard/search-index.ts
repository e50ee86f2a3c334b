// Substring search over the companies without reading every one: a 4-gram index (each four-character sequence of
// the lower-cased "name\ndomain" key -> the slots, ascending, whose key contains it; a slot is a company's fixed
// number in the live index, so a change touches only that company's posting lists). A query of four or more
// characters only verifies (with `includes`, so the answer is exactly the full pass's) the entries in every posting
// list of its 4-grams (intersected rarest first), so a selective search costs about the same at 1,000 or 1,000,000
// companies. A query of three characters is the union of the lists of the 4-grams that extend it (every occurrence
// but one at the very end of a key is followed by a character) and of the keys that end with it; a query of one or
// two characters falls back to a full pass. Built once at start-up; `set` keeps it current as companies appear or
// are renamed.
//
// Why 4-grams, not trigrams: at 1,000,000 companies named with numbers, the rarest trigram of "company 123456" still
// has ~4,000 keys (every number containing "456"), and intersecting two such lists was most of a search's time
// (0.07 ms, a quarter of the process's CPU under distinct searches); its rarest 4-gram has ~300.
// Posting lists are Int32Arrays, not arrays of numbers: at 1,000,000 companies they hold ~30 million slots, 300 MB
// as JavaScript arrays (8 bytes a slot plus growth) and ~120 MB packed.

const GRAM = 4;
/** Candidates few enough to check with `includes` directly. */
const NARROW_ENOUGH = 16;
/** A posting list is merged with the candidates only while it is at most this many times longer than they are. */
const WORTH_MERGING = 4;

/** The values in both ascending lists, ascending: a merge, or binary searches when `b` is much longer than `a`. */
export function intersect(a: ArrayLike<number>, b: ArrayLike<number>): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  if (b.length > a.length * 16) {
    let lo = 0;
    for (let i = 0; i < a.length; i++) {
      const v = a[i];
      let hi = b.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (b[mid] < v) lo = mid + 1;
        else hi = mid;
      }
      if (lo < b.length && b[lo] === v) out[n++] = v;
    }
  } else {
    for (let i = 0, j = 0; i < a.length && j < b.length; ) {
      if (a[i] < b[j]) i++;
      else if (a[i] > b[j]) j++;
      else {
        out[n++] = a[i];
        i++;
        j++;
      }
    }
  }
  return out.subarray(0, n);
}

/** An ascending list of slots in a growable Int32Array (`slots()` is a view of the used part). */
class Postings {
  private data = new Int32Array(4);
  length = 0;

  slots(): Int32Array {
    return this.data.subarray(0, this.length);
  }

  insert(slot: number): void {
    const at = this.length > 0 && this.data[this.length - 1] < slot ? this.length : lowerBound(this.slots(), slot);
    if (at < this.length && this.data[at] === slot) return;
    if (this.length === this.data.length) {
      const grown = new Int32Array(Math.ceil(this.data.length * 1.5) + 4);
      grown.set(this.data);
      this.data = grown;
    }
    // New slots are the highest, so this is an append but for a renamed company.
    this.data.copyWithin(at + 1, at, this.length);
    this.data[at] = slot;
    this.length++;
  }

  remove(slot: number): void {
    const at = lowerBound(this.slots(), slot);
    if (at >= this.length || this.data[at] !== slot) return;
    this.data.copyWithin(at, at + 1, this.length);
    this.length--;
  }

  /** Gives back the unused capacity (after the start-up load, which grew every list by appending). */
  trim(): void {
    if (this.data.length > this.length) this.data = this.data.slice(0, this.length);
  }
}

export class SearchIndex {
  private readonly postings = new Map<string, Postings>();
  /** The 4-grams present, by their first three characters (a three-character query's lists). */
  private readonly extensions = new Map<string, Set<string>>();
  /** Keys by their last three characters (where a three-character query has no 4-gram). */
  private readonly tails = new Map<string, Postings>();
  private readonly keys: Array<string | null> = [];

  /** `keys[i]` is the search key of slot i. */
  constructor(keys: readonly string[] = []) {
    keys.forEach((key, slot) => this.set(slot, key));
  }

  /** Gives `slot` the key `key` (null: no key), updating only the posting lists of its old and new grams. */
  set(slot: number, key: string | null): void {
    const old = this.keys[slot] ?? null;
    if (old === key) return;
    if (old !== null) {
      for (const gram of gramsOf(old)) this.drop(gram, slot);
      if (old.length >= GRAM - 1) dropFrom(this.tails, old.slice(1 - GRAM), slot);
    }
    while (this.keys.length <= slot) this.keys.push(null);
    this.keys[slot] = key;
    if (key !== null) {
      for (const gram of gramsOf(key)) this.add(gram, slot);
      if (key.length >= GRAM - 1) addTo(this.tails, key.slice(1 - GRAM), slot);
    }
  }

  /** Frees the posting lists' spare capacity (after a bulk load). */
  trim(): void {
    for (const list of this.postings.values()) list.trim();
    for (const list of this.tails.values()) list.trim();
  }

  /** Slots (ascending) whose key contains `q` (already lower-cased). */
  search(q: string): Int32Array {
    if (q.length >= GRAM) {
      const found: Postings[] = [];
      for (let j = 0; j + GRAM <= q.length; j++) {
        const list = this.postings.get(q.slice(j, j + GRAM));
        if (!list) return new Int32Array(0);
        if (!found.includes(list)) found.push(list);
      }
      const lists = found.map((list) => list.slots());
      // A key containing q contains every 4-gram of q, so the candidates are narrowed by intersecting the posting
      // lists, rarest first, before the string check (comparing integers is far cheaper than `includes`).
      lists.sort((a, b) => a.length - b.length);
      let candidates: ArrayLike<number> = lists[0];
      // A list much longer than the candidates is still worth intersecting while it holds at most a quarter of the
      // keys (it then drops about three candidates in four, by binary searches: `includes` on a candidate reads its
      // key from anywhere in the heap, a cache miss each; 14 -> 9 us for the median selective search at 1,000,000
      // companies). A list of most keys narrows them little and costs a search per candidate (".exa" holds every
      // domain): past that point `includes` on the candidates is cheaper (7 to 20 ms -> 2 to 9 ms per broad search at
      // 1,000,000 companies). The lists are rarest first, so every later one is longer still.
      const quarter = this.keys.length / 4;
      for (let i = 1; i < lists.length && candidates.length > NARROW_ENOUGH && (lists[i].length <= candidates.length * WORTH_MERGING || lists[i].length <= quarter); i++) {
        candidates = intersect(candidates, lists[i]);
      }
      return this.verify(candidates, q);
    }
    if (q.length === GRAM - 1) {
      // Every key in these lists contains q, so the union is the answer (no string check).
      const lists = [...(this.extensions.get(q) ?? [])].map((gram) => this.postings.get(gram)!.slots());
      const tail = this.tails.get(q);
      if (tail) lists.push(tail.slots());
      return union(lists);
    }
    const out: number[] = [];
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i]?.includes(q)) out.push(i);
    return Int32Array.from(out);
  }

  private verify(candidates: ArrayLike<number>, q: string): Int32Array {
    const out = new Int32Array(candidates.length);
    let n = 0;
    for (let k = 0; k < candidates.length; k++) {
      const i = candidates[k];
      if (this.keys[i]!.includes(q)) out[n++] = i;
    }
    return out.subarray(0, n);
  }

  private add(gram: string, slot: number): void {
    if (addTo(this.postings, gram, slot)) {
      const prefix = gram.slice(0, GRAM - 1);
      let grams = this.extensions.get(prefix);
      if (!grams) this.extensions.set(prefix, (grams = new Set()));
      grams.add(gram);
    }
  }

  private drop(gram: string, slot: number): void {
    if (dropFrom(this.postings, gram, slot)) {
      const prefix = gram.slice(0, GRAM - 1);
      const grams = this.extensions.get(prefix)!;
      grams.delete(gram);
      if (grams.size === 0) this.extensions.delete(prefix);
    }
  }
}

/** Adds the slot to the key's list; true when the list is new. */
function addTo(lists: Map<string, Postings>, key: string, slot: number): boolean {
  let list = lists.get(key);
  const created = !list;
  if (!list) lists.set(key, (list = new Postings()));
  list.insert(slot);
  return created;
}

/** Removes the slot from the key's list; true when the list is gone (it was the last slot). */
function dropFrom(lists: Map<string, Postings>, key: string, slot: number): boolean {
  const list = lists.get(key);
  if (!list) return false;
  list.remove(slot);
  if (list.length > 0) return false;
  lists.delete(key);
  return true;
}

/** The distinct values of ascending lists, ascending. */
function union(lists: Int32Array[]): Int32Array {
  if (lists.length === 1) return lists[0].slice();
  const all = new Int32Array(lists.reduce((n, l) => n + l.length, 0));
  let at = 0;
  for (const list of lists) {
    all.set(list, at);
    at += list.length;
  }
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i];
  return all.subarray(0, n);
}

/** The distinct 4-grams of a key. */
function gramsOf(key: string): Set<string> {
  const grams = new Set<string>();
  for (let j = 0; j + GRAM <= key.length; j++) grams.add(key.slice(j, j + GRAM));
  return grams;
}

function lowerBound(list: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
