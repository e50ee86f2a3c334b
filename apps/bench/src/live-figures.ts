// The figures of the live benches, computed from raw samples: percentiles, the freshness-lag summary and the targets
// of issue 22 (pure functions, so the verdicts printed are the ones defined here and nowhere else).

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export interface LagSummary {
  /** Changes whose new score a read showed. */
  seen: number;
  /** Changes no read showed within the prober's patience (counted in the percentiles at that patience). */
  unseen: number;
  p50: number;
  p99: number;
  max: number;
}

/** `lags` in ms (one per change seen), `unseen` changes counted as `patienceMs` (a lower bound of their lag). */
export function summarizeLag(lags: readonly number[], unseen: number, patienceMs: number): LagSummary {
  const all = [...lags, ...Array<number>(unseen).fill(patienceMs)];
  return { seen: lags.length, unseen, p50: percentile(all, 50), p99: percentile(all, 99), max: all.length ? Math.max(...all) : Number.NaN };
}

/** Issue 22's targets for reads while scans end. */
export const LIVE_TARGETS = { keepShare: 0.8, p99Ms: 50, freshnessP99Ms: 1000 } as const;

export interface LiveVerdict {
  share: number;
  keeps: boolean;
  fast: boolean;
  fresh: boolean;
  met: boolean;
}

/**
 * A row with scans ending: reads keep >= 80 % of the same run's no-write throughput, p99 < 50 ms, freshness p99 < 1 s,
 * and no change left unseen. With no change at all the freshness target cannot be judged, so it is not met.
 */
export function liveVerdict(row: { rps: number; p99: number; non2xx: number }, noWriteRps: number, lag: LagSummary): LiveVerdict {
  const share = noWriteRps > 0 ? row.rps / noWriteRps : 0;
  const keeps = share >= LIVE_TARGETS.keepShare;
  const fast = row.p99 < LIVE_TARGETS.p99Ms && row.non2xx === 0;
  const fresh = lag.seen > 0 && lag.unseen === 0 && lag.p99 < LIVE_TARGETS.freshnessP99Ms;
  return { share, keeps, fast, fresh, met: keeps && fast && fresh };
}

/** Issue 22's growth targets: per-change cost by size, read cost against the 1,000-company row, RSS, start-up. */
export function perChangeTargetMs(companies: number): number | null {
  if (companies >= 1_000_000) return 20;
  if (companies >= 100_000) return 5;
  return null;
}

export const GROWTH_TARGETS = { readShare: 0.75, rssMb: 3 * 1024, startupMs: 60_000 } as const;

/** CPU share of one core over a wall-clock window, from two `process.cpuUsage()` readings (µs). */
export function cpuShare(before: { user: number; system: number }, after: { user: number; system: number }, wallMs: number): number {
  return wallMs > 0 ? (after.user - before.user + after.system - before.system) / 1000 / wallMs : 0;
}

/** Wall-clock time in ms with sub-millisecond resolution, comparable between processes of one machine. */
export const wallNow = (): number => performance.timeOrigin + performance.now();
