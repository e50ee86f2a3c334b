// `npm run bench [-- part ...] [--db=pglite,postgres] [--companies=N] [--seconds=S] [--sizes=1000,10000,100000] [--open-seconds=30]`:
// runs every benchmark part (or the named ones) and prints each row beside its target, met or NOT MET.
// Parts: reads, feedback, pipeline, web, scanner, growth (the longest, last). Defaults are the figures; flags shorten a run.
import { execSync } from 'node:child_process';
import { loadLine, type Database } from './common';
import { printFeedbackBench, runFeedbackBench } from './feedback-bench';
import { printGrowth, runGrowthBench } from './growth-bench';
import { printPipelineBench, runPipelineBench } from './pipeline-bench';
import { printReadRows, runReadBench } from './read-bench';
import { printWebBench, runWebBench } from './web-bench';
// The scanner's own benchmark lives outside its main entry point because it starts the sandbox.
import { runScannerBench } from '@arl/scanner/dist/bench';

interface Flags {
  databases: Database[];
  companies: number;
  seconds: number;
  sizes: number[];
  connections: number;
  /** Duration of the feedback open loop (the figure: 30 s). */
  openSeconds: number;
}

function parse(argv: string[]): { parts: string[]; flags: Flags } {
  const parts: string[] = [];
  const flags: Flags = { databases: ['pglite', 'postgres'], companies: 10_000, seconds: 5, sizes: [1_000, 10_000, 100_000], connections: 64, openSeconds: 30 };
  for (const arg of argv) {
    const [key, value] = arg.startsWith('--') ? arg.slice(2).split('=') : [null, arg];
    if (key === null) parts.push(value);
    else if (key === 'db') flags.databases = value.split(',') as Database[];
    else if (key === 'companies') flags.companies = Number(value);
    else if (key === 'seconds') flags.seconds = Number(value);
    else if (key === 'sizes') flags.sizes = value.split(',').map(Number);
    else if (key === 'connections') flags.connections = Number(value);
    else if (key === 'open-seconds') flags.openSeconds = Number(value);
    else throw new Error(`Unknown flag --${key}`);
  }
  return { parts, flags };
}

const parts: Record<string, (f: Flags) => Promise<void>> = {
  reads: async (f) =>
    printReadRows(
      `Reads: ${f.companies.toLocaleString('en')} companies with realistic scans, every request a path the app has not answered before`,
      await runReadBench({ databases: f.databases, companies: f.companies, seconds: f.seconds, connections: f.connections, workloads: ['q', 'cursor', 'company', 'hit'] }),
      f.connections,
    ),
  feedback: async (f) => printFeedbackBench(await runFeedbackBench({ databases: f.databases, seconds: f.seconds, openSeconds: f.openSeconds })),
  pipeline: async () => printPipelineBench(await runPipelineBench()),
  web: async (f) => printWebBench(await runWebBench({ companies: f.companies, seconds: f.seconds, connections: f.connections })),
  scanner: async () => {
    await runScannerBench({ print: (line) => console.log(line) });
  },
  growth: async (f) => printGrowth(await runGrowthBench({ databases: f.databases, sizes: f.sizes, seconds: Math.min(f.seconds, 3), connections: f.connections })),
};

async function main(): Promise<void> {
  const { parts: wanted, flags } = parse(process.argv.slice(2));
  const unknown = wanted.filter((w) => !parts[w]);
  if (unknown.length > 0) {
    console.error(`Unknown bench part(s): ${unknown.join(', ')}. Parts: ${Object.keys(parts).join(', ')}`);
    process.exit(2);
  }
  console.log(`npm run bench ${process.argv.slice(2).join(' ')} — ${new Date().toISOString()}, ${loadLine()}`);
  for (const name of wanted.length > 0 ? wanted : Object.keys(parts)) {
    console.log(`\n== ${name} == (${loadLine()})`);
    await parts[name](flags);
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
