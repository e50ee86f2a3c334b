// Child process of the leaderboard benchmark: 10,000 scored companies on the embedded default (PGlite), the real
// leaderboard app, and a raw node:http server that answers the same bytes from memory. Prints the URLs as JSON.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createLeaderboardListener, createLogger, createRuntime, loadConfig } from '@arl/server';

const COMPANIES = Number(process.argv[2] ?? 10_000);

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-bench-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', SEED_FILE: '' });
  const runtime = await createRuntime(config, { logger: createLogger('warn') });
  const { prisma } = runtime.db;

  const categories = await prisma.category.findMany();
  const now = Date.now();
  const rows = Array.from({ length: COMPANIES }, (_, i) => ({
    id: randomUUID(),
    name: `Bench Company ${i}`,
    domain: `bench-${i}.example`,
    website: `https://bench-${i}.example/`,
    source: 'curated' as const,
    categoryId: categories[i % categories.length]?.id ?? null,
    score: (i * 37) % 101,
    grade: 'C',
    scannedAt: new Date(now - (i % 500) * 60_000),
  }));
  for (let i = 0; i < rows.length; i += 1000) await prisma.company.createMany({ data: rows.slice(i, i + 1000) });
  const history = rows.map((r, i) => ({ companyId: r.id, score: (r.score + (i % 7)) % 101, grade: 'C', recordedAt: new Date(now - 8 * 86_400_000) }));
  for (let i = 0; i < history.length; i += 1000) await prisma.scoreHistory.createMany({ data: history.slice(i, i + 1000) });

  const app = http.createServer(createLeaderboardListener(runtime));
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;

  // Find a deep cursor by walking the real API, then capture every benchmarked response's bytes.
  let cursor: string | null = null;
  for (let page = 0; page < Math.floor(COMPANIES / 100) - 5; page++) {
    const res = await fetch(`${appUrl}/v1/leaderboard?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    cursor = ((await res.json()) as { nextCursor: string | null }).nextCursor;
  }
  const category = categories[0]?.slug ?? 'developer-tools';
  const paths: Record<string, string> = {
    'limit=50': '/v1/leaderboard?limit=50',
    'q=company 12': '/v1/leaderboard?limit=50&q=company%2012',
    [`category=${category}`]: `/v1/leaderboard?limit=50&category=${category}`,
    'deep cursor': `/v1/leaderboard?limit=50&cursor=${encodeURIComponent(cursor ?? '')}`,
  };
  const bodies = new Map<string, Buffer>();
  for (const p of Object.values(paths)) {
    const res = await fetch(appUrl + p);
    if (res.status !== 200) throw new Error(`${p} answered ${res.status}: ${await res.text()}`);
    bodies.set(p, Buffer.from(await res.arrayBuffer()));
  }
  const raw = http.createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json; charset=utf-8', 'content-length': body?.length ?? 0 });
    res.end(body);
  });
  await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
  const rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
  process.stdout.write(`${JSON.stringify({ appUrl, rawUrl, paths })}\n`);
  process.on('SIGTERM', async () => {
    app.close();
    raw.close();
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
