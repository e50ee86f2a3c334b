// Child process of the web benchmark: N realistic companies (seed-realistic.ts) on PGlite, the real leaderboard host
// (pages, response cache, production validation mode) listening on loopback. Prints its URL, then serves until
// SIGTERM.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createLeaderboardListener, createLogger, createRuntime, loadConfig } from '@arl/server';
import { seedRealistic } from './seed-realistic';

const companies = Number(process.argv[2] ?? 10_000);

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-bench-web-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', SEED_FILE: '', WORKER_IN_PROCESS: 'false', RESCAN_INTERVAL: 'off' });
  const runtime = await createRuntime(config, { logger: createLogger('warn') });
  await seedRealistic(runtime.db, companies);
  await runtime.leaderboard.current();
  const server = http.createServer(createLeaderboardListener(runtime));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
  process.once('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    void runtime.close().finally(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
