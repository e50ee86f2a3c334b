// `npm run bench [-- part ...]`: runs every benchmark part (or the named ones) and prints its figures.
import { printFeedbackBench, runFeedbackBench } from './feedback-bench';
import { printLeaderboardBench, runLeaderboardBench } from './leaderboard-bench';
import { printPipelineBench, runPipelineBench } from './pipeline-bench';
// The scanner's own benchmark lives outside its main entry point because it starts the sandbox.
import { runScannerBench } from '@arl/scanner/dist/bench';

const parts: Record<string, () => Promise<void>> = {
  leaderboard: async () => printLeaderboardBench(await runLeaderboardBench()),
  pipeline: async () => printPipelineBench(await runPipelineBench()),
  feedback: async () => printFeedbackBench(await runFeedbackBench()),
  scanner: async () => {
    await runScannerBench({ print: (line) => console.log(line) });
  },
};

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !parts[w]);
  if (unknown.length > 0) {
    console.error(`Unknown bench part(s): ${unknown.join(', ')}. Parts: ${Object.keys(parts).join(', ')}`);
    process.exit(2);
  }
  for (const name of wanted.length > 0 ? wanted : Object.keys(parts)) {
    console.log(`\n== ${name} ==`);
    await parts[name]();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
