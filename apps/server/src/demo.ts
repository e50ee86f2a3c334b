// `npm run demo`: starts the sandbox personas (fixture sites on loopback) and scans every one through the real
// pipeline (API service -> job queue -> worker -> scanner -> results), so the leaderboard fills with computed scores
// on a fresh machine. The results are demo data and say so: community companies flagged `demo`, listed with
// `community=include` only, next to nothing curated. Then it keeps serving like `npm start` (Ctrl-C stops it);
// `--exit` stops after the scans instead.
// Only light modules are loaded before the start-up guards, so a refusal comes at once; the rest after them.
import { loadConfig, type Config } from './config';
import { claimDataDir } from './lifecycle/claim';
import { DataDirBusyError } from './lifecycle/data-dir-lock';
import { assertPortsFree, PortBusyError } from './lifecycle/port-check';

const print = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const exitAfter = process.argv.includes('--exit');
  const loaded = loadConfig();
  // The personas live on loopback, so the demo must reach private addresses; its DNS knows only the personas'
  // names, so nothing else is fetched. Rescans of the curated list stay off: the demo is about the personas.
  const config: Config = { ...loaded, scan: { ...loaded.scan, allowPrivateNetworks: true, rescanIntervalMs: null } };
  claimDataDir(config);
  await assertPortsFree(config.host, [{ variable: 'PORT', port: config.port }, { variable: 'FEEDBACK_PORT', port: config.feedbackPort }]);
  const { PERSONAS, startSandbox } = require('@arl/sandbox') as typeof import('@arl/sandbox');
  const { startBackground } = require('./jobs/background') as typeof import('./jobs/background');
  const { createLogger, logOutputOf, secretsOf } = require('./logger') as typeof import('./logger');
  const { createRuntime } = require('./runtime') as typeof import('./runtime');
  const { listen } = require('./server') as typeof import('./server');
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, { secrets: secretsOf(config), ...logOutputOf(config) });
  const sandbox = await startSandbox({ latencyMs: 20 });
  const runtime = await createRuntime(config, { logger, fetchPolicy: { lookup: sandbox.lookup } });
  const servers = await listen(runtime);
  const background = startBackground(runtime, { pollMs: 100 });
  // Watch and act: a receiver on loopback subscribed to one persona before it is scanned.
  const { startDemoWatch } = require('./webhooks/demo-watch') as typeof import('./webhooks/demo-watch');
  const watch = await startDemoWatch(runtime.webhooks, 'exemplary-co.test');
  const stop = async () => {
    await background.stop(5000);
    await watch.close();
    await servers.close();
    await runtime.close();
    await sandbox.close();
  };

  print(`Demo: scanning ${PERSONAS.length} sandbox personas through the real pipeline (database: ${runtime.db.kind}, ${config.dataDir})`);
  const started = Date.now();
  const submitted = [];
  for (const persona of PERSONAS) {
    const answer = await runtime.scans.submit({ url: sandbox.urlOf(persona.name), origin: 'demo' });
    submitted.push({ persona, id: answer.scan.id });
  }
  let mismatches = 0;
  for (const { persona, id } of submitted) {
    let scan = await runtime.scans.read(id);
    const deadline = Date.now() + 120_000;
    while (scan && scan.state !== 'ended' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      scan = await runtime.scans.read(id);
    }
    const got = scan?.state === 'ended' ? `${scan.ending}${scan.score !== undefined ? ` ${scan.score} ${scan.grade}` : ''}` : 'did not end';
    const expected = `${persona.expected.ending} ${persona.expected.grades.join('/')}`.trim();
    const fits = scan?.ending === persona.expected.ending && (persona.expected.grades.length === 0 || persona.expected.grades.includes(scan?.grade as never));
    if (!fits) mismatches += 1;
    print(`  ${fits ? 'ok ' : '!! '} ${persona.hostname.padEnd(20)} ${got.padEnd(24)} expected ${expected}`);
  }
  print(`${submitted.length} scans in ${((Date.now() - started) / 1000).toFixed(1)} s; ${mismatches} outside the persona's expected band.`);
  print(`Leaderboard with the demo companies: ${servers.leaderboardUrl}/v1/leaderboard?community=include`);
  print(`One of them: ${servers.leaderboardUrl}/v1/leaderboard/companies/exemplary-co.test?community=include`);
  await watch.report(print, servers.leaderboardUrl);
  if (exitAfter) {
    await stop();
    process.exit(mismatches === 0 ? 0 : 1);
  }
  print('Serving; Ctrl-C stops the demo.');
  let stopping = false;
  const shutdown = () => {
    if (stopping) process.exit(1);
    stopping = true;
    stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err) => {
  if (err instanceof DataDirBusyError || err instanceof PortBusyError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`Demo failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
