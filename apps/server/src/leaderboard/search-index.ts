// Substring search over a population without reading every entry: a trigram index (each three-character sequence of
// the lower-cased "name\ndomain" key -> the ranked positions whose key contains it). A query of three or more
// characters only verifies (with `includes`, so the answer is exactly the full pass's) the entries in every posting
// list of its trigrams (intersected rarest first), so a selective search costs about the same at 1,000 or 100,000
// companies; a query of one or two characters
// falls back to a full pass. Built on a snapshot's first search, once per population.

const GRAM = 3;
/** Candidates few enough to check with `includes` directly. */
const NARROW_ENOUGH = 16;

/** The values in both ascending lists, ascending: a merge, or binary searches when `b` is much longer than `a`. */
export function intersect(a: Int32Array, b: Int32Array): Int32Array {
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

export class SearchIndex {
  private readonly postings = new Map<string, Int32Array>();

  /** `keys[i]` is the search key of the entry at ranked position i. */
  constructor(private readonly keys: readonly string[]) {
    const lists = new Map<string, number[]>();
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      let last: string | null = null;
      for (let j = 0; j + GRAM <= key.length; j++) {
        const gram = key.slice(j, j + GRAM);
        if (gram === last) continue;
        last = gram;
        let list = lists.get(gram);
        if (!list) lists.set(gram, (list = []));
        // Positions arrive in ascending order; skip a repeat of the same trigram within one key.
        if (list[list.length - 1] !== i) list.push(i);
      }
    }
    for (const [gram, list] of lists) this.postings.set(gram, Int32Array.from(list));
  }

  /** Ranked positions (ascending) whose key contains `q` (already lower-cased). */
  search(q: string): Int32Array {
    if (q.length >= GRAM) {
      const lists: Int32Array[] = [];
      for (let j = 0; j + GRAM <= q.length; j++) {
        const list = this.postings.get(q.slice(j, j + GRAM));
        if (!list) return new Int32Array(0);
        if (!lists.includes(list)) lists.push(list);
      }
      // A key containing q contains every trigram of q, so the candidates are narrowed by intersecting the posting
      // lists, rarest first, before the string check: at 100,000 companies the rarest trigram of "company 12345"
      // still has ~300 keys (every number containing "123"), and comparing integers is far cheaper than `includes`.
      lists.sort((a, b) => a.length - b.length);
      let candidates = lists[0];
      for (let i = 1; i < lists.length && candidates.length > NARROW_ENOUGH; i++) candidates = intersect(candidates, lists[i]);
      return this.verify(candidates, q);
    }
    const out: number[] = [];
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i].includes(q)) out.push(i);
    return Int32Array.from(out);
  }

  private verify(candidates: Int32Array, q: string): Int32Array {
    const out = new Int32Array(candidates.length);
    let n = 0;
    for (let k = 0; k < candidates.length; k++) {
      const i = candidates[k];
      if (this.keys[i].includes(q)) out[n++] = i;
    }
    return out.subarray(0, n);
  }
}
