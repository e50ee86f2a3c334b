// The counts of one scope (a population, or one category of it): per check and status, per grade, and histograms of
// the score and of each layer's score. A company's contribution is added or taken away in O(checks); every figure
// the statistics answer (shares, quartiles) is read from these in O(checks + 101), never from the companies.
import { CHECKS, GRADES, LAYERS, NO_RESULT, NO_SCORE, STATUSES } from './definitions';

/** What one company contributes: its latest scan's check statuses (codes), grade, score and layer scores. */
export interface Contribution {
  /** One status code per check of CHECKS (NO_RESULT when the scan has none for it). */
  statuses: Uint8Array;
  grade: number;
  score: number;
  /** One score per layer of LAYERS (NO_SCORE for null). */
  layers: Uint8Array;
}

const S = STATUSES.length;
/** Histogram slots: scores 0-100, then one for null. */
const H = 102;

export class ScopeCounts {
  companies = 0;
  /** Changes with every contribution added or taken away (figures read from these counts are kept until it moves). */
  version = 0;
  /** checks[i * S + status]: companies whose check i had that status. */
  readonly checks = new Float64Array(CHECKS.length * S);
  readonly grades = new Float64Array(GRADES.length);
  readonly scores = new Float64Array(H);
  /** layers[l * H + score]. */
  readonly layers = new Float64Array(LAYERS.length * H);

  /** Adds (sign 1) or takes away (sign -1) one company's contribution. */
  apply(c: Contribution, sign: 1 | -1): void {
    this.version++;
    this.companies += sign;
    for (let i = 0; i < c.statuses.length; i++) {
      const status = c.statuses[i];
      if (status !== NO_RESULT) this.checks[i * S + status] += sign;
    }
    this.grades[c.grade] += sign;
    this.scores[c.score] += sign;
    for (let l = 0; l < c.layers.length; l++) this.layers[l * H + (c.layers[l] === NO_SCORE ? 101 : c.layers[l])] += sign;
  }

  /** Companies with a result for check i, and each status's count. */
  check(i: number): { companies: number; counts: number[] } {
    const counts = Array.from(this.checks.subarray(i * S, i * S + S));
    return { companies: counts.reduce((a, b) => a + b, 0), counts };
  }

  layer(l: number): Float64Array {
    return this.layers.subarray(l * H, l * H + H);
  }
}

/** The nearest-rank quartiles of a 0-100 histogram (slot 101, null, left out); null when it holds no score. */
export function quartiles(histogram: Float64Array): { min: number; q1: number; median: number; q3: number; max: number } | null {
  let n = 0;
  for (let s = 0; s <= 100; s++) n += histogram[s];
  if (n === 0) return null;
  // The q-th quantile is the ceil(q x n)-th smallest score (1-based).
  const at = (rank: number): number => {
    let seen = 0;
    for (let s = 0; s <= 100; s++) {
      seen += histogram[s];
      if (seen >= rank) return s;
    }
    return 100;
  };
  return { min: at(1), q1: at(Math.ceil(0.25 * n)), median: at(Math.ceil(0.5 * n)), q3: at(Math.ceil(0.75 * n)), max: at(n) };
}
