// Substring search over a population without reading every entry: a trigram index (each three-character sequence of
// the lower-cased "name\ndomain" key -> the ranked positions whose key contains it). A query of three or more
// characters only verifies (with `includes`, so the answer is exactly the full pass's) the entries of its rarest
// trigram, so a selective search costs the same at 1,000 or 100,000 companies; a query of one or two characters
// falls back to a full pass. Built on a snapshot's first search, once per population.

const GRAM = 3;

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
      let rarest: Int32Array | undefined;
      for (let j = 0; j + GRAM <= q.length; j++) {
        const list = this.postings.get(q.slice(j, j + GRAM));
        if (!list) return new Int32Array(0);
        if (!rarest || list.length < rarest.length) rarest = list;
      }
      return this.verify(rarest!, q);
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
