// Substring search over the companies without reading every one: a trigram index (each three-character sequence of
// the lower-cased "name\ndomain" key -> the slots, ascending, whose key contains it; a slot is a company's fixed number
// in the live index, so a change touches only that company's posting lists). A query of three or more
// characters only verifies (with `includes`, so the answer is exactly the full pass's) the entries in every posting
// list of its trigrams (intersected rarest first), so a selective search costs about the same at 1,000 or 100,000
// companies; a query of one or two characters
// falls back to a full pass. Built once at start-up; `set` keeps it current as companies appear or are renamed.
// Posting lists are Int32Arrays, not arrays of numbers: at 1,000,000 companies they hold ~30 million slots, 300 MB
// as JavaScript arrays (8 bytes a slot plus growth) and ~120 MB packed.

const GRAM = 3;
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
  private readonly keys: Array<string | null> = [];

  /** `keys[i]` is the search key of slot i. */
  constructor(keys: readonly string[] = []) {
    keys.forEach((key, slot) => this.set(slot, key));
  }

  /** Gives `slot` the key `key` (null: no key), updating only the posting lists of its old and new trigrams. */
  set(slot: number, key: string | null): void {
    const old = this.keys[slot] ?? null;
    if (old === key) return;
    if (old !== null) for (const gram of gramsOf(old)) this.drop(gram, slot);
    while (this.keys.length <= slot) this.keys.push(null);
    this.keys[slot] = key;
    if (key !== null) for (const gram of gramsOf(key)) this.add(gram, slot);
  }

  /** Frees the posting lists' spare capacity (after a bulk load). */
  trim(): void {
    for (const list of this.postings.values()) list.trim();
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
      // A key containing q contains every trigram of q, so the candidates are narrowed by intersecting the posting
      // lists, rarest first, before the string check: at 100,000 companies the rarest trigram of "company 12345"
      // still has ~300 keys (every number containing "123"), and comparing integers is far cheaper than `includes`.
      lists.sort((a, b) => a.length - b.length);
      let candidates: ArrayLike<number> = lists[0];
      // A list much longer than the candidates narrows them little and costs its whole length to merge (".ex" holds
      // every domain): past that point `includes` on the candidates is cheaper (7 to 20 ms -> 2 to 9 ms per broad
      // search at 1,000,000 companies). The lists are rarest first, so every later one is longer still.
      for (let i = 1; i < lists.length && candidates.length > NARROW_ENOUGH && lists[i].length <= candidates.length * WORTH_MERGING; i++) {
        candidates = intersect(candidates, lists[i]);
      }
      return this.verify(candidates, q);
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
    let list = this.postings.get(gram);
    if (!list) this.postings.set(gram, (list = new Postings()));
    list.insert(slot);
  }

  private drop(gram: string, slot: number): void {
    const list = this.postings.get(gram);
    if (!list) return;
    list.remove(slot);
    if (list.length === 0) this.postings.delete(gram);
  }
}

/** The distinct trigrams of a key. */
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
