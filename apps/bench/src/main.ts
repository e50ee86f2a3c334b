// `npm run bench [-- part ...] [--db=pglite,postgres] [--companies=N,...] [--rates=0,5,20] [--seconds=S] [--sizes=1000,10000,100000]
//  [--open-seconds=30] [--budget-seconds=900]`: runs every benchmark part (or the named ones) and prints each row beside its
// target, met or NOT MET. Parts: reads, mixed, two-process, feedback, pipeline, stats, web, scanner, growth (the longest of the
// default run, last); growth-1m, census (the worker on a simulated internet, PostgreSQL), queue (claims with a million queued jobs) and floor (Express against raw node:http on fixed bytes) only when named. Defaults are the figures; flags shorten a run.
import { execSync } from 'node:child_process';
import { loadLine, type Database } from './common';
import { printFeedbackBench, runFeedbackBench } from './feedback-bench';
import { printGrowth, runGrowthBench } from './growth-bench';
import { runGrowth1m } from './growth-1m-bench';
import { printLiveSummary, runMixed, runTwoProcess } from './live-bench';
import { printPipelineBench, runPipelineBench } from './pipeline-bench';
import { printReadRows, runReadBench } from './read-bench';
import { printWebBench, runWebBench } from './web-bench';
import { CENSUS_DEFAULTS, printCensusBench, runCensusBench } from './census/bench';
import { runStatsBench } from './stats-bench';
import { runQueueBench } from './queue-bench';
import { runExpressFloor } from './express-floor';
// The scanner's own benchmark lives outside its main entry point because it starts the sandbox.
import { runScannerBench } from '@arl/scanner/dist/bench';

interface Flags {
  databases: Database[];
  /** Population(s); each part has its own default (reads 10,000; mixed 10,000 and 100,000). */
  companies: number[] | null;
  seconds: number;
  /** Growth sizes; each growth part has its own default. */
  sizes: number[] | null;
  /** Scans ending per second in the mixed part (0 is always measured first). */
  rates: number[];
  connections: number;
  /** growth-1m: how long one size may take to seed before the database is called stopped there. */
  budgetSeconds: number;
  /** Duration of the feedback open loop (the figure: 30 s). */
  openSeconds: number;
  /** census: sites of the simulated internet, SCAN_CONCURRENCY, rescans/s asked, warm-up seconds (null: defaults). */
  sites: number | null;
  concurrency: number | null;
  rate: number | null;
  warmup: number | null;
  secondsGiven: boolean;
  /** stats on PostgreSQL: seed into this schema once and keep it; a later run with the same name reuses it (no seeding). */
  keepSchema: string | null;
}

function parse(argv: string[]): { parts: string[]; flags: Flags } {
  const parts: string[] = [];
  const flags: Flags = { databases: ['pglite', 'postgres'], companies: null, seconds: 5, sizes: null, rates: [0, 5, 20], connections: 64, openSeconds: 30, budgetSeconds: 900, sites: null, concurrency: null, rate: null, warmup: null, secondsGiven: false, keepSchema: null };
  for (const arg of argv) {
    const [key, value] = arg.startsWith('--') ? arg.slice(2).split('=') : [null, arg];
    if (key === null) parts.push(value);
    else if (key === 'db') flags.databases = value.split(',') as Database[];
    else if (key === 'companies') flags.companies = value.split(',').map(Number);
    else if (key === 'rates') flags.rates = value.split(',').map(Number);
    else if (key === 'seconds') {
      flags.seconds = Number(value);
      flags.secondsGiven = true;
    }
    else if (key === 'sites') flags.sites = Number(value);
    else if (key === 'concurrency') flags.concurrency = Number(value);
    else if (key === 'rate') flags.rate = Number(value);
    else if (key === 'warmup') flags.warmup = Number(value);
    else if (key === 'sizes') flags.sizes = value.split(',').map(Number);
    else if (key === 'budget-seconds') flags.budgetSeconds = Number(value);
    else if (key === 'connections') flags.connections = Number(value);
    else if (key === 'open-seconds') flags.openSeconds = Number(value);
    else if (key === 'keep-schema') {
      if (!/^[a-z_][a-z0-9_]*$/.test(value ?? '')) throw new Error('--keep-schema takes a schema name (lower case letters, digits, _)');
      flags.keepSchema = value;
    }
    else throw new Error(`Unknown flag --${key}`);
  }
  return { parts, flags };
}

const parts: Record<string, (f: Flags) => Promise<void>> = {
  reads: async (f) => {
    for (const companies of f.companies ?? [10_000]) {
      printReadRows(
        `Reads: ${companies.toLocaleString('en')} companies with realistic scans, every request a path the app has not answered before`,
        await runReadBench({ databases: f.databases, companies, seconds: f.seconds, connections: f.connections, workloads: ['q', 'cursor', 'company', 'hit'] }),
        f.connections,
      );
    }
  },
  mixed: async (f) =>
    printLiveSummary(await runMixed({ databases: f.databases, sizes: f.companies ?? [10_000, 100_000], rates: f.rates, seconds: f.seconds, connections: f.connections })),
  'two-process': async (f) =>
    printLiveSummary(await runTwoProcess({ sizes: f.companies ?? [10_000], rate: 5, seconds: f.seconds, connections: f.connections })),
  feedback: async (f) => printFeedbackBench(await runFeedbackBench({ databases: f.databases, seconds: f.seconds, openSeconds: f.openSeconds })),
  pipeline: async () => printPipelineBench(await runPipelineBench()),
  stats: async (f) => {
    await runStatsBench({ databases: f.databases, sizes: f.companies ?? [10_000], rates: f.rates, seconds: f.seconds, connections: f.connections, keepSchema: f.keepSchema });
  },
  web: async (f) => printWebBench(await runWebBench({ companies: (f.companies ?? [10_000])[0], seconds: f.seconds, connections: f.connections })),
  scanner: async () => {
    await runScannerBench({ print: (line) => console.log(line) });
  },
  growth: async (f) => printGrowth(await runGrowthBench({ databases: f.databases, sizes: f.sizes ?? [1_000, 10_000, 100_000], seconds: Math.min(f.seconds, 3), connections: f.connections })),
};

/** Parts run only when named: longer than the whole default run. */
const extraParts: Record<string, (f: Flags) => Promise<void>> = {
  // `floor`: raw node:http against Express 5 answering the same fixed bytes (what routing every read through Express costs).
  floor: async (f) => runExpressFloor(f.seconds, f.connections),
  // `queue [--companies=N]`: the worker's claim with N (default 1,000,000) queued scan jobs, PostgreSQL.
  queue: async (f) => {
    await runQueueBench({ queued: (f.companies ?? [1_000_000])[0], claims: 400 });
  },
  // `census [--sites=5000] [--seconds=60] [--concurrency=64] [--rate=30] [--warmup=20]`: the worker on a simulated internet.
  census: async (f) =>
    printCensusBench(await runCensusBench({
      ...CENSUS_DEFAULTS,
      ...(f.sites ? { sites: f.sites } : {}),
      ...(f.secondsGiven ? { seconds: f.seconds } : {}),
      ...(f.concurrency ? { concurrency: f.concurrency } : {}),
      ...(f.rate ? { rate: f.rate } : {}),
      ...(f.warmup !== null ? { warmupSeconds: f.warmup } : {}),
    })),
  'growth-1m': async (f) => {
    await runGrowth1m({ databases: f.databases, sizes: f.sizes ?? [1_000, 100_000, 1_000_000], seconds: Math.min(f.seconds, 3), connections: f.connections, budgetSeconds: f.budgetSeconds, changes: 200 });
  },
};

async function main(): Promise<void> {
  const { parts: wanted, flags } = parse(process.argv.slice(2));
  const all = { ...parts, ...extraParts };
  const unknown = wanted.filter((w) => !all[w]);
  if (unknown.length > 0) {
    console.error(`Unknown bench part(s): ${unknown.join(', ')}. Parts: ${Object.keys(all).join(', ')}`);
    process.exit(2);
  }
  console.log(`npm run bench ${process.argv.slice(2).join(' ')} — ${new Date().toISOString()}, ${loadLine()}`);
  for (const name of wanted.length > 0 ? wanted : Object.keys(parts)) {
    console.log(`\n== ${name} == (${loadLine()})`);
    await all[name](flags);
  }
  console.log(`\nfinished ${new Date().toISOString()}, ${loadLine()}`);
  try {
    console.log(execSync('uptime').toString().trim());
  } catch {
    // uptime is informative only
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
