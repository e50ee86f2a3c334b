// The owner CLI as a real child process (dist/cli/feedback.js, built by the build task) on its own database:
// a PGlite DATA_DIR (one process at a time, so the test's own connections are closed while the CLI runs), or a
// fresh PostgreSQL schema when TEST_DATABASE_URL is set.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createDb, testSchemaName, type Db } from '@arl/db';
import { parse as parseCsv } from 'csv-parse/sync';
import pg from 'pg';
import request from 'supertest';
import { CSV_COLUMNS } from '../src/cli/feedback-export';
import { contentHash } from '../src/feedback/canonical';
import { loadConfig, pgliteDir } from '../src/config';
import { createLogger } from '../src/logger';
import { createRuntime } from '../src/runtime';
import { listen } from '../src/server';

const CLI = path.resolve(__dirname, '../dist/cli/feedback.js');
const SECRET = 'cli-test-invite-secret-0123456789';
const pgUrl = process.env.TEST_DATABASE_URL;
const schema = pgUrl ? testSchemaName('feedback_cli') : null;
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-feedback-cli-'));
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  LOG_LEVEL: 'warn',
  FEEDBACK_INVITE_SECRET: SECRET,
  DATA_DIR: path.join(workDir, 'data'),
  RESCAN_INTERVAL: 'off',
  ...(pgUrl && schema ? { DATABASE_URL: withSchema(pgUrl, schema) } : {}),
};

function withSchema(url: string, name: string): string {
  const u = new URL(url);
  u.searchParams.set('schema', name);
  return u.toString();
}

interface Run { code: number; stdout: string; stderr: string }
// The timeout stops a hung child (the base test deadline is 300 s); a CLI run takes seconds, more on a loaded machine.
function cli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env, cwd: workDir, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Opens the CLI's database from the test process; PGlite must be closed again before the next CLI run. */
async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await createDb(pgUrl && schema ? { databaseUrl: pgUrl, schema } : { dataDir: pgliteDir(loadConfig(env)) });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

beforeAll(() => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: build @arl/server first (npx turbo run build --filter=@arl/server)`);
});
afterAll(async () => {
  fs.rmSync(workDir, { recursive: true, force: true });
  if (pgUrl && schema) {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
});

test('help, usage errors and unknown projects exit non-zero with a clear message', async () => {
  const help = await cli('--help');
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('reports export <slug> --format jsonl|csv');
  expect((await cli()).code).toBe(2);
  const unknown = await cli('project', 'frobnicate', 'x');
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('Unknown command');
  const badSlug = await cli('project', 'create', 'Bad Slug', '--name', 'x');
  expect(badSlug.code).toBe(2);
  expect(badSlug.stderr).toContain('Invalid slug');
  expect((await cli('project', 'create', 'x', '--name', 'x', '--accepting', 'maybe')).stderr).toContain('--accepting must be true or false');
  expect((await cli('project', 'list', '--bogus')).code).toBe(2);
  expect((await cli('invite', 'revoke', 'not-a-token')).code).toBe(2);
  expect((await cli('invite', 'issue', 'x', '--expires', 'soon')).stderr).toContain('--expires must be');
  const missing = await cli('reports', 'list', 'no-such-project');
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('No project "no-such-project"');
});

test('projects: create, update and list; invitation tokens: issue, use, list, revoke', async () => {
  const created = await cli('project', 'create', 'cli-demo', '--name', 'CLI Demo', '--invitation', 'Tell us.', '--signed-only', 'true');
  expect(created.code).toBe(0);
  expect(JSON.parse(created.stdout)).toMatchObject({ slug: 'cli-demo', name: 'CLI Demo', accepting: true, signedOnly: true, invitation: 'Tell us.', guidance: '' });
  const updated = await cli('project', 'update', 'cli-demo', '--guidance', 'Be specific.', '--name', 'CLI Demo 2');
  expect(JSON.parse(updated.stdout)).toMatchObject({ name: 'CLI Demo 2', guidance: 'Be specific.', accepting: true, signedOnly: true });
  expect((await cli('project', 'list')).stdout).toMatch(/^cli-demo\taccepting\tsigned-only\t0 reports\tCLI Demo 2$/m);

  const issued = await cli('invite', 'issue', 'cli-demo', '--expires', '2d', '--note', 'for the test');
  expect(issued.code).toBe(0);
  const token = issued.stdout.trim();
  expect(token).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/);

  const send = async () => {
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent', FEEDBACK_RATE_LIMIT: '0' });
    const runtime = await createRuntime(config, { logger: createLogger('silent'), prepare: false });
    const servers = await listen(runtime, { port: 0, feedbackPort: 0 });
    try {
      return await request(servers.feedbackUrl).post('/v1/feedback/cli-demo/reports').send({ observation: 'Sent with a CLI-issued token.', outcome: 'succeeded', invite: token });
    } finally {
      await servers.close();
      await runtime.close();
    }
  };
  expect((await send()).status).toBe(201);
  const revoked = await cli('invite', 'revoke', token);
  expect({ code: revoked.code, stderr: revoked.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  expect(revoked.stderr).toContain('Revoked invitation');
  expect((await cli('invite', 'list', 'cli-demo')).stdout).toMatch(/\trevoked\texpires .*\tfor the test$/m);
  const refused = await send();
  expect(refused.status).toBe(403);
  expect(refused.body.code).toBe('invite_invalid');
});

test('export round-trips 10,000 reports as JSON Lines and as CSV', async () => {
  expect((await cli('project', 'create', 'bulk', '--name', 'Bulk')).code).toBe(0);
  const outcomes = ['succeeded', 'friction', 'blocked'];
  const base = Date.parse('2026-11-01T00:00:00.000Z');
  const reports = Array.from({ length: 10_000 }, (_, i) => {
    const body: Record<string, unknown> = {
      observation: `Report ${i}: "quoted", comma, semicolon; newline\nand <script>alert(${i})</script> \u00e9\u{1F600}`,
      outcome: outcomes[i % 3],
    };
    if (i % 2 === 0) body.goal = `Goal ${i}`;
    if (i % 5 === 0) body.metadata = { attempt: i, ok: i % 10 === 0, note: `n,${i}`, none: null };
    if (i % 7 === 0) body.environment = { os: 'linux', locale: 'en-US' };
    if (i % 11 === 0) body.agent = `Agent/${i}`;
    return { id: randomUUID(), receivedAt: new Date(base + Math.floor(i / 3) * 1000), body };
  });
  await withDb(async (db) => {
    const { id: projectId } = await db.prisma.feedbackProject.findUniqueOrThrow({ where: { slug: 'bulk' } });
    for (let i = 0; i < reports.length; i += 2000) {
      await db.prisma.feedbackReport.createMany({
        data: reports.slice(i, i + 2000).map((r) => ({ ...r, projectId, body: r.body as object, contentHash: contentHash(r.body) })),
      });
    }
  });
  const expected = [...reports].sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime() || (a.id < b.id ? -1 : 1));

  const jsonlFile = path.join(workDir, 'bulk.jsonl');
  const jsonl = await cli('reports', 'export', 'bulk', '--format', 'jsonl', '--out', jsonlFile);
  expect(jsonl.code).toBe(0);
  expect(jsonl.stderr).toContain('Exported 10000 report(s) as jsonl');
  const lines = fs.readFileSync(jsonlFile, 'utf8').split('\n');
  expect(lines.pop()).toBe('');
  expect(lines.map((l) => JSON.parse(l))).toEqual(expected.map((r) => ({ id: r.id, receivedAt: r.receivedAt.toISOString(), report: r.body })));

  const csv = await cli('reports', 'export', 'bulk', '--format', 'csv');
  expect(csv.code).toBe(0);
  const records = parseCsv(csv.stdout, { columns: true }) as Array<Record<string, string>>;
  expect(records).toHaveLength(10_000);
  const fromCsv = records.map((rec) => {
    const body: Record<string, unknown> = {};
    for (const column of CSV_COLUMNS.slice(2)) {
      if (rec[column] === '') continue;
      body[column] = column === 'metadata' || column === 'environment' ? JSON.parse(rec[column]) : rec[column];
    }
    return { id: rec.id, receivedAt: rec.receivedAt, body };
  });
  expect(fromCsv).toEqual(expected.map((r) => ({ id: r.id, receivedAt: r.receivedAt.toISOString(), body: r.body })));

  const listed = await cli('reports', 'list', 'bulk', '--limit', '3');
  expect(listed.stdout.trim().split('\n')).toHaveLength(3);
  expect(listed.stdout).toContain(expected[9999].id);
});
