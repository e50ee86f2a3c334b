// `npm run export` (dist/cli/export.js) as a real child process on its own database (a PGlite DATA_DIR, or a fresh
// PostgreSQL schema with TEST_DATABASE_URL): each format's dated snapshot holds exactly the rows the HTTP download
// streams for the same population, which the dataset test holds equal to operation 3's reads. Parquet is read back
// by hyparquet (the reader of the writer's project, an implementation of its own) in a child process, as ESM.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createDb, testSchemaName, type Db } from '@arl/db';
import { CHECK_CATALOG } from '@arl/scanner';
import { parse as parseCsv } from 'csv-parse/sync';
import { loadConfig, pgliteDir } from '../src/config';
import { createLogger } from '../src/logger';
import { createRuntime } from '../src/runtime';
import { commitEnding } from '../src/scans/scan-job';
import { listen } from '../src/server';
import { ensureCategory, gradeOf, insertCompany } from './support/fixtures';

const CLI = path.resolve(__dirname, '../dist/cli/export.js');
const pgUrl = process.env.TEST_DATABASE_URL;
const schema = pgUrl ? testSchemaName('export_cli') : null;
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-export-cli-'));
const outDir = path.join(workDir, 'out');
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  LOG_LEVEL: 'warn',
  DATA_DIR: path.join(workDir, 'data'),
  RESCAN_INTERVAL: 'off',
  ...(pgUrl && schema ? { DATABASE_URL: withSchema(pgUrl, schema) } : {}),
};
const STATUSES = ['passed', 'warning', 'failed', 'not_applicable', 'couldnt_check'];

function withSchema(url: string, name: string): string {
  const u = new URL(url);
  u.searchParams.set('schema', name);
  return u.toString();
}

interface Run { code: number; stdout: string; stderr: string }
function run(file: string, args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file, ...args], { env: { ...env, ...extraEnv }, cwd: workDir, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

let expected: Array<Record<string, unknown>>;
let csvHeader: string;

beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: build @arl/server first (npx turbo run build --filter=@arl/server)`);
  const config = loadConfig({ ...env, HOST: '127.0.0.1', SCAN_ALLOW_PRIVATE_NETWORKS: 'true' });
  const db: Db = await createDb(pgUrl && schema ? { databaseUrl: pgUrl, schema } : { dataDir: pgliteDir(config) });
  // Migrated and seeded as the CLI will find it (the seed's curated companies are never scanned: not ranked).
  const runtime = await createRuntime(config, { logger: createLogger('silent'), db, prepare: true });
  try {
    await ensureCategory(db, 'media', 'Media');
    const now = new Date();
    for (let i = 0; i < 5; i++) {
      const domain = `export-${i}.example`;
      await insertCompany(db, { name: i === 2 ? 'Comma, "Quote"\nLine' : `Export ${i}`, domain, score: null, category: i % 2 ? 'media' : null });
      const scan = await db.prisma.scan.create({ data: { target: `https://${domain}/`, activeTarget: `https://${domain}/`, url: `https://${domain}/`, domain, state: 'scoring' } });
      const checks = CHECK_CATALOG.slice(i).map((c, k) => ({ id: c.id, name: c.name, layer: c.layer, tier: c.tier, label: c.label, bonus: c.bonus, status: STATUSES[(k + i) % 5], earned: 0, points: c.points, evidence: null, fix: null }));
      await commitEnding(
        { db, queue: runtime.jobs, scanEnded: runtime.scanEnded, clock: () => now, logger: runtime.logger, publicUrl: 'http://localhost' },
        scan.id,
        { ending: 'finished', cause: null, score: 20 * i, grade: gradeOf(20 * i) as 'A', summary: null, siteName: domain, checks: checks as never, layers: [] as never, catalogVersion: '2026.11.1' },
      );
    }
    await runtime.leaderboard.current();
    await runtime.leaderboard.fillDetails();
    const servers = await listen(runtime, { port: 0, feedbackPort: 0 });
    try {
      const jsonl = await (await fetch(`${servers.leaderboardUrl}/v1/leaderboard/dataset.jsonl?community=include`)).text();
      expected = jsonl.split('\n').filter(Boolean).map((l) => JSON.parse(l));
      csvHeader = (await (await fetch(`${servers.leaderboardUrl}/v1/leaderboard/dataset.csv`)).text()).split('\r\n')[0];
    } finally {
      await servers.close();
    }
  } finally {
    await runtime.close();
    await db.close();
  }
  expect(expected).toHaveLength(5);
});

afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

const byDomain = (rows: Array<Record<string, unknown>>) => [...rows].sort((a, b) => String(a.domain).localeCompare(String(b.domain)));
const today = () => new Date().toISOString().slice(0, 10);

/**
 * Runs the export and returns what it wrote: the file its output names, which must be the snapshot of the run's day
 * (UTC). The day is read before and after the run, so a run across midnight is not a failure (issue 38: a CI run at
 * 23:59 read the date again afterwards).
 */
async function exportSnapshot(args: string[], name: (day: string) => string): Promise<{ result: Awaited<ReturnType<typeof run>>; file: string }> {
  const before = today();
  const result = await run(CLI, args);
  const after = today();
  const file = result.stdout.split('\t')[0];
  expect([before, after].map((day) => path.join(outDir, name(day)))).toContain(file);
  return { result, file };
}

test('csv and jsonl snapshots hold exactly the rows the HTTP download streams', async () => {
  const { result: csv, file: csvFile } = await exportSnapshot(['--format', 'csv', '--out', outDir, '--community'], (day) => `agent-readiness-${day}-all.csv`);
  expect(csv).toMatchObject({ code: 0, stdout: `${csvFile}\t5 rows\t${fs.statSync(csvFile).size} bytes\n` });
  const text = fs.readFileSync(csvFile, 'utf8');
  expect(text.split('\r\n')[0]).toBe(csvHeader);
  const records = parseCsv(text, { columns: true }) as Array<Record<string, string>>;
  expect(byDomain(records.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'score' ? Number(v) : v === '' ? null : v]))))).toEqual(byDomain(expected));

  const { result: jsonl, file: jsonlFile } = await exportSnapshot(['--format', 'jsonl', '--out', outDir, '--community'], (day) => `agent-readiness-${day}-all.jsonl`);
  expect(jsonl.code).toBe(0);
  const lines = fs.readFileSync(jsonlFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  expect(byDomain(lines)).toEqual(byDomain(expected));
  // Nothing half written is left behind.
  expect(fs.readdirSync(outDir).filter((f) => f.includes('.partial'))).toEqual([]);
});

test('the parquet snapshot reads back (hyparquet) as the same rows, with the license and methodology in its metadata', async () => {
  const { result, file } = await exportSnapshot(['--format', 'parquet', '--out', outDir, '--community', '--category', 'media'], (day) => `agent-readiness-${day}-all-media.parquet`);
  expect(result.code).toBe(0);
  expect(result.stdout.startsWith(`${file}\t2 rows\t`)).toBe(true);
  const reader = path.join(workDir, 'read-parquet.mjs');
  fs.writeFileSync(reader, `
    import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from ${JSON.stringify(require.resolve('hyparquet', { paths: [require.resolve('hyparquet-writer')] }))};
    const file = await asyncBufferFromFile(process.argv[2]);
    const metadata = await parquetMetadataAsync(file);
    const rows = await parquetReadObjects({ file });
    process.stdout.write(JSON.stringify({ kv: metadata.key_value_metadata, rows }, (k, v) => (typeof v === 'bigint' ? Number(v) : v)));
  `);
  const read = await run(reader, [file]);
  expect(read.stderr).toBe('');
  const { kv, rows } = JSON.parse(read.stdout) as { kv: Array<{ key: string; value: string }>; rows: Array<Record<string, unknown>> };
  expect(Object.fromEntries(kv.map((e) => [e.key, e.value]))).toMatchObject({ license: 'CC-BY-4.0', methodology_version: expected[0].methodologyVersion });
  const media = expected.filter((r) => r.category === 'media');
  expect(media).toHaveLength(2);
  expect(byDomain(rows)).toEqual(byDomain(media));
});

test('usage errors exit 2 before touching the database', async () => {
  for (const args of [['--format', 'xml', '--out', outDir], ['--format', 'csv'], ['--format', 'csv', '--out', outDir, '--category', 'Not A Slug'], ['--nope']]) {
    const result = await run(CLI, args);
    expect({ args, code: result.code }).toEqual({ args, code: 2 });
    expect(result.stderr).toContain('Usage: npm run export');
  }
});

test('an unknown category is refused (exit 1, no file); --out that is a file or cannot be made a folder is said in words', async () => {
  const dir = path.join(workDir, 'refusals');
  const unknown = await run(CLI, ['--format', 'csv', '--out', dir, '--category', 'nope']);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toMatch(/^No category "nope" \(categories: .*media.*\): nothing was written\.\n$/);
  expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);

  // Refused before the database opens: no run waits for it.
  const aFile = path.join(workDir, 'a-file');
  fs.writeFileSync(aFile, 'not a folder');
  const dangling = path.join(workDir, 'dangling');
  fs.symlinkSync(path.join(workDir, 'missing', 'folder'), dangling);
  const [isFile, underFile, missing] = await Promise.all([
    run(CLI, ['--format', 'csv', '--out', aFile]),
    run(CLI, ['--format', 'csv', '--out', path.join(aFile, 'sub')]),
    run(CLI, ['--format', 'csv', '--out', dangling]),
  ]);
  expect(isFile).toMatchObject({ code: 2, stderr: `--out ${aFile} is a file, not a folder: --out names the folder the snapshot is written into (there is no flag to overwrite a file; remove it or name a folder).\n` });
  expect(underFile).toMatchObject({ code: 2, stderr: `--out ${path.join(aFile, 'sub')} cannot be made a folder: ${aFile} on its path is a file, not a folder.\n` });
  expect(missing).toMatchObject({ code: 2, stderr: `--out ${dangling} cannot be made a folder: it is a symbolic link to a folder that does not exist (${path.join(workDir, 'missing', 'folder')}).\n` });
  for (const r of [unknown, isFile, underFile, missing]) expect(r.stderr).not.toMatch(/EEXIST|ENOENT|ENOTDIR|Failed:/);
});
