import { PERSONAS, startSandbox } from '@arl/sandbox';
import { scan } from './scan/scan';
import type { ScanResult } from './types';

export interface ScannerBenchResult {
  exemplaryMs: number;
  concurrentScans: number;
  failures: number;
  scansPerSecond: number;
  peakRssMb: number;
}

export interface ScannerBenchOptions {
  latencyMs?: number;
  concurrentScans?: number;
  /** Receives one human line per measurement; nothing is printed otherwise. */
  print?: (line: string) => void;
}

/**
 * 1. the exemplary persona with 50 ms per response, scanned alone (target: under 1.5 s);
 * 2. N concurrent scans of mixed personas; a failure is a scan whose ending differs from the persona's expected one.
 */
export async function runScannerBench(options: ScannerBenchOptions = {}): Promise<ScannerBenchResult> {
  const latencyMs = options.latencyMs ?? 50;
  const concurrentScans = options.concurrentScans ?? 100;
  const print = options.print ?? (() => undefined);
  const sandbox = await startSandbox({ latencyMs });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 25);
  try {
    const policy = { allowPrivateNetworks: true, lookup: sandbox.lookup };
    await scan(sandbox.urlOf('exemplary'), { fetchPolicy: policy }); // warm-up: module loading and JIT are not the scanner's latency
    const started = performance.now();
    const exemplary = await scan(sandbox.urlOf('exemplary'), { fetchPolicy: policy });
    const exemplaryMs = Math.round(performance.now() - started);
    print(`exemplary persona, ${latencyMs} ms per response: ${exemplaryMs} ms (${exemplary.ending}, ${exemplary.grade}; target < 1500: ${exemplaryMs < 1500 && exemplary.ending === 'finished' ? 'met' : 'NOT MET'})`);

    const personas = Array.from({ length: concurrentScans }, (_, i) => PERSONAS[i % PERSONAS.length]);
    const batchStarted = performance.now();
    const results: ScanResult[] = await Promise.all(personas.map((p) => scan(sandbox.urlOf(p.name), { fetchPolicy: policy })));
    const seconds = (performance.now() - batchStarted) / 1000;
    const failures = results.filter((r, i) => r.ending !== personas[i].expected.ending).length;
    const scansPerSecond = Math.round((concurrentScans / seconds) * 10) / 10;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const peakRssMb = Math.round(peakRss / 1024 / 1024);
    print(`${concurrentScans} concurrent scans of ${PERSONAS.length} personas: ${seconds.toFixed(2)} s, ${scansPerSecond} scans/s, ${failures} failures, peak RSS ${peakRssMb} MB`);
    return { exemplaryMs, concurrentScans, failures, scansPerSecond, peakRssMb };
  } finally {
    clearInterval(sampler);
    await sandbox.close();
  }
}
