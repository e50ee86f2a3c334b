// Child process of the feedback benchmark: the real feedback app on the embedded default (PGlite in a temp
// DATA_DIR) or on PostgreSQL (a fresh schema of DATABASE_URL, dropped on exit), with one open project "bench" and
// the rate limit off. Prints {url} as JSON.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createFeedbackApp, createLogger, createRuntime, loadConfig } from '@arl/server';

const mode = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const databaseUrl = process.argv[3] ?? '';

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-bench-feedback-'));
  const schema = `bench_feedback_${process.pid}`;
  const url = mode === 'postgres' ? withSchema(databaseUrl, schema) : '';
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: url, SEED_FILE: '', FEEDBACK_RATE_LIMIT: '0', WORKER_IN_PROCESS: 'false', RESCAN_INTERVAL: 'off' });
  const runtime = await createRuntime(config, { logger: createLogger('warn') });
  await runtime.db.prisma.feedbackProject.create({ data: { slug: 'bench', name: 'Bench', invitation: '', guidance: '' } });
  const server = http.createServer(createFeedbackApp(runtime));
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
  process.on('SIGTERM', async () => {
    server.close();
    server.closeAllConnections();
    const stored = await runtime.db.prisma.feedbackReport.count().catch(() => -1);
    process.stderr.write(`feedback bench target (${mode}): ${stored} reports stored\n`);
    if (mode === 'postgres') await runtime.db.executeSql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

function withSchema(raw: string, schema: string): string {
  const u = new URL(raw);
  u.searchParams.set('schema', schema);
  return u.toString();
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
