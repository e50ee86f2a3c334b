// The entries of one sorted view that match `q` and/or `category`, as ascending indexes into the view's list, found
// without a pass over the whole population: candidates come from the search index (q) or a per-category index
// list built once per snapshot, so a page costs its matches, not the population's size.
import { searchIndex, type PopulationView, type SortedView } from './ranking';

export function matchingPositions(view: PopulationView, sorted: SortedView, q: string | null, category: string | null): Int32Array {
  if (q === null) return category === null ? allPositions(sorted) : categoryPositions(view, sorted, category);
  const ranks = searchIndex(view).search(q); // ranked positions (rank - 1), ascending
  const out = new Int32Array(ranks.length);
  let n = 0;
  for (let k = 0; k < ranks.length; k++) {
    const r = ranks[k];
    if (category !== null && view.ranked[r].company.category?.slug !== category) continue;
    out[n++] = sorted.positionOf[r];
  }
  return out.subarray(0, n).sort();
}

function allPositions(sorted: SortedView): Int32Array {
  const out = new Int32Array(sorted.list.length);
  for (let i = 0; i < out.length; i++) out[i] = i;
  return out;
}

function categoryPositions(view: PopulationView, sorted: SortedView, slug: string): Int32Array {
  let positions = sorted.byCategory.get(slug);
  if (!positions) {
    const found: number[] = [];
    for (let i = 0; i < sorted.list.length; i++) if (sorted.list[i].company.category?.slug === slug) found.push(i);
    positions = Int32Array.from(found);
    // Only slugs that name a category of this population are kept: a made-up slug must not grow the map.
    if (positions.length > 0) sorted.byCategory.set(slug, positions);
  }
  return positions;
}

/** Index of the first element >= `value` in an ascending array. */
export function lowerBound(sortedPositions: Int32Array, value: number): number {
  let lo = 0;
  let hi = sortedPositions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sortedPositions[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
