// What every bench target process (read-target.ts, live-target.ts) records about itself: lines logged at error level
// (an answer that breaks the contract is one, in the production validation mode) and garbage-collection pauses.
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { createLogger } from '@arl/server';

export interface GcFigures {
  count: number;
  totalMs: number;
  maxMs: number;
}

/** Garbage-collection pauses of this process by kind, updated as they happen (the tail of a latency figure is often one). */
export function watchGc(): { major: GcFigures; minor: GcFigures } {
  const gc = { major: { count: 0, totalMs: 0, maxMs: 0 }, minor: { count: 0, totalMs: 0, maxMs: 0 } };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR ? gc.major : gc.minor;
      kind.count++;
      kind.totalMs += e.duration;
      kind.maxMs = Math.max(kind.maxMs, e.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  return gc;
}

/**
 * A warn-level JSON logger to stderr that counts its error lines: a benchmark of answers the contract refuses
 * measures nothing, so the rows print the count and a row with any is NOT MET.
 */
export function countingLogger(): { logger: ReturnType<typeof createLogger>; errorLines: () => number } {
  let errorLines = 0;
  const destination = {
    write(line: string) {
      if ((JSON.parse(line) as { level: number }).level >= 50) errorLines++;
      process.stderr.write(line);
    },
  };
  return { logger: createLogger('warn', { destination, format: 'json' }), errorLines: () => errorLines };
}
