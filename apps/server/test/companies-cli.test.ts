// `npm run companies`: the operator's population CLI as a real child process (dist/cli/companies.js, built by the
// build task) on its own database: a PGlite DATA_DIR (one process at a time: the test opens it only between CLI
// runs), or a fresh PostgreSQL schema when TEST_DATABASE_URL is set. With PostgreSQL, one more test runs the CLI
// beside a running API process (and its worker) and reads every change through that process's operations 1, 3, 6.
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createDb, testSchemaName, type Db } from '@arl/db';
import { parse as parseCsv } from 'csv-parse/sync';
import pg from 'pg';
import { normalizeCompanyDomain } from '../src/census/domain';
import { splitCsvLine } from '../src/census/list-file';
import { loadConfig, pgliteDir } from '../src/config';
import { lockDataDir } from '../src/lifecycle/data-dir-lock';
import { startBackground, type Background } from '../src/jobs/background';
import { pollUntil, startScanTestServer } from './support/scan-harness';

const CLI = path.resolve(__dirname, '../dist/cli/companies.js');
const pgUrl = process.env.TEST_DATABASE_URL;
const schema = pgUrl ? testSchemaName('companies_cli') : null;
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-companies-cli-'));
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  LOG_LEVEL: 'warn',
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
function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...env, ...extraEnv }, cwd: workDir, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Like cli(), but what the child has written so far can be read while it runs; `done` settles on 'close' (stdio drained). */
function cliLive(args: string[], extraEnv: Record<string, string> = {}): { seen: { stdout: string; stderr: string }; done: Promise<Run> } {
  const seen = { stdout: '', stderr: '' };
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...env, ...extraEnv }, cwd: workDir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (seen.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (seen.stderr += chunk));
  const timer = setTimeout(() => child.kill(), 240_000); // a hang, not a slow machine
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout: seen.stdout, stderr: seen.stderr });
    });
  });
  return { seen, done };
}

/** Writes a list into the work directory and returns its path. */
function file(name: string, lines: string[]): string {
  const at = path.join(workDir, name);
  fs.writeFileSync(at, `${lines.join('\n')}\n`);
  return at;
}

interface Listed { domain: string; name: string; category: string | null; website: string; source: string; score: number | null; grade: string | null; scannedAt: string | null }
async function listed(...args: string[]): Promise<Listed[]> {
  const run = await cli(['list', '--format', 'json', ...args]);
  expect(run).toMatchObject({ code: 0 });
  return JSON.parse(run.stdout) as Listed[];
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

test('usage errors exit 2 before the database opens; the embedded database is refused while another process owns DATA_DIR', async () => {
  const help = await cli(['--help']);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('import FILE [--top N]');
  const runs = await Promise.all([
    cli([]),
    cli(['frobnicate']),
    cli(['import', path.join(workDir, 'no-such.csv')]),
    cli(['import', file('empty.csv', ['domain']), '--prune', '--source', 'community']),
    cli(['rescan', '--all', '--stale', '3']),
    cli(['list', '--format', 'xml']),
  ]);
  expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2, 2, 2]);
  expect(runs[1].stderr).toContain('Unknown command "frobnicate"');
  expect(runs[2].stderr).toContain('no such file');
  expect(runs[3].stderr).toContain('--prune removes curated companies');
  expect(runs[4].stderr).toContain('exactly one of --category SLUG, --stale DAYS, --all');
  expect(runs[5].stderr).toContain('--format must be csv or json');

  // The same single-owner lock as npm start and the other CLIs; PostgreSQL needs none (DATA_DIR holds only mail).
  fs.mkdirSync(env.DATA_DIR, { recursive: true });
  const lock = lockDataDir(env.DATA_DIR);
  try {
    const run = await cli(['list']);
    if (pgUrl) {
      expect(run.code).toBe(0);
    } else {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`is already in use by process ${process.pid}`);
    }
  } finally {
    lock.release();
  }
});

test('the import refuses what no scan may reach, a file that is not UTF-8 text and an empty file: exit 1, nothing changed', async () => {
  // One file with every host the issue found accepted (the rule itself, line by line: census-list-file.test.ts).
  const hosts = await cli(['import', file('unreachable.csv', ['domain', '127.0.0.1', '10.0.0.5', 'localhost', '[::1]', '169.254.169.254', 'reachable.example'])]);
  expect(hosts.code).toBe(1);
  expect(JSON.parse(hosts.stdout)).toMatchObject({ imported: false, read: 6, listed: 1, refused: 5 });
  const why = 'scans reach public addresses only (SCAN_ALLOW_PRIVATE_NETWORKS allows private, loopback and link-local ones, for tests and demos)';
  expect(hosts.stderr.split('\n').filter((l) => /^line \d+:/.test(l))).toEqual([
    `line 2: 127.0.0.1 is not a public address: ${why}`,
    `line 3: 10.0.0.5 is not a public address: ${why}`,
    `line 4: localhost names this machine (localhost): ${why}`,
    `line 5: ::1 is not a public address: ${why}`,
    `line 6: 169.254.169.254 is not a public address: ${why}`,
  ]);
  // add: the same rule.
  const added = await cli(['add', 'http://127.0.0.1/']);
  expect(added).toMatchObject({ code: 1, stderr: `Not added: 127.0.0.1 is not a public address: ${why}.\n` });

  // UTF-16 (as a spreadsheet saves "Unicode text"): named as such, none of its bytes echoed, even with --skip-invalid.
  const utf16Path = path.join(workDir, 'utf16.csv');
  fs.writeFileSync(utf16Path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('domain,name\nutf16.example,UTF\n', 'utf16le')]));
  const utf16 = await cli(['import', utf16Path, '--skip-invalid']);
  expect(utf16).toMatchObject({ code: 1, stdout: '' });
  expect(utf16.stderr).toContain('Nothing imported: the file is UTF-16 text (it begins with a UTF-16 byte-order mark), not UTF-8: save the list as UTF-8');
  expect(utf16.stderr).not.toContain('unknown column');
  expect(utf16.stderr).toMatch(/^[\x20-\x7e\n]*$/);

  const empty = await cli(['import', file('nothing.csv', [])]);
  expect(empty).toMatchObject({ code: 1, stdout: '' });
  expect(empty.stderr).toContain('Nothing imported: the file is empty');
  expect((await listed()).map((c) => c.domain).filter((d) => d.endsWith('.example') || !/[a-z]/.test(d) || d === 'localhost')).toEqual([]);
}, 300_000);

test('domains are written as operation 3 reads them; a line splits as RFC 4180 says, within the line', () => {
  const cases: Array<[string, string]> = [
    ['Example.COM', 'example.com'],
    ['  example.com.  ', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['https://Example.com/pricing?x=1#top', 'example.com'],
    ['example.com/about', 'example.com'],
    ['example.com:8080', 'example.com'],
    ['[2001:DB8::1]', '2001:db8::1'],
    ['192.0.2.1', '192.0.2.1'],
  ];
  for (const [raw, domain] of cases) expect({ raw, result: normalizeCompanyDomain(raw) }).toEqual({ raw, result: { ok: true, domain } });
  const refused: Array<[string, unknown]> = [
    ['', 'the domain is empty'],
    ['www.example.com', 'www.example.com is not a registrable domain: its scans are ranked under example.com'],
    ['https://blog.example.co.uk/', 'blog.example.co.uk is not a registrable domain: its scans are ranked under example.co.uk'],
    ['exa mple.com', '"exa mple.com" is not a domain name'],
    ['1.2.3', '"1.2.3" is not a domain name'],
    ['xn--zz.com', '"xn--zz.com" is not a domain name'],
    ['ftp://example.com', '"ftp://example.com" is not an http or https address'],
    ['https://user:pw@example.com/', '"https://user:pw@example.com/" carries credentials'],
    [`${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.com`, expect.stringContaining('is longer than 253 characters')],
  ];
  for (const [raw, reason] of refused) expect({ raw, result: normalizeCompanyDomain(raw) }).toEqual({ raw, result: { ok: false, reason } });

  expect(splitCsvLine('a,"b, ""c""",,d')).toEqual(['a', 'b, "c"', '', 'd']);
  expect(splitCsvLine('"",x')).toEqual(['', 'x']);
  expect(splitCsvLine('a,')).toEqual(['a', '']);
  expect(splitCsvLine('"open,x')).toEqual({ error: 'a quoted field is not closed on its line (a field may not span lines)' });
  expect(splitCsvLine('"a"b,c')).toEqual({ error: 'text follows a closing quote (write a quote inside a quoted field as "")' });
  expect(splitCsvLine('a"b,c')).toEqual({ error: 'a quote inside an unquoted field (quote the whole field and double the quote)' });
});

const CSV_WITH_REFUSALS = [
  'domain,name,category,website', // 1
  'Alpha.Example,Alpha Inc.,ai-ml,', // 2: lower-cased
  'bücher.example,Bücher,,', // 3: IDN to ASCII
  'https://beta.example/about,,,', // 4: a URL stands for its host
  'www.gamma.example,,,', // 5: refused, not a registrable domain
  '', // 6: blank, skipped
  'bad domain,,,', // 7: refused
  'delta.example,"Delta, ""the"" one",nosuch,', // 8: refused, unknown category
  'alpha.example,Again,,', // 9: refused, a duplicate of line 2
  'epsilon.example,Epsilon,,https://other.example/', // 10: refused, the website ranks another domain
  '"unclosed,x,,', // 11: refused, an unclosed quote
];

test('a CSV import: refused lines with their numbers and nothing imported, then --skip-invalid, then idempotent', async () => {
  const csv = file('companies.csv', CSV_WITH_REFUSALS);
  const refused = await cli(['import', csv]);
  expect(refused.code).toBe(1);
  expect(JSON.parse(refused.stdout)).toEqual({ imported: false, read: 9, listed: 3, added: 0, updated: 0, unchanged: 0, removed: 0, refused: 6 });
  const lines = refused.stderr.split('\n').filter((l) => /^line \d+:/.test(l));
  expect(lines).toEqual([
    'line 5: www.gamma.example is not a registrable domain: its scans are ranked under gamma.example',
    'line 7: "bad domain" is not a domain name',
    expect.stringMatching(/^line 8: unknown category "nosuch" \(categories: ai-ml, analytics-data, /),
    "line 10: the website's scans would rank other.example, not epsilon.example",
    'line 11: a quoted field is not closed on its line (a field may not span lines)',
    'line 9: alpha.example is listed already on line 2',
  ]);
  expect(refused.stderr).toContain('Nothing imported: 6 of 9 lines refused');

  const skipped = await cli(['import', csv, '--skip-invalid']);
  expect(skipped.code).toBe(0);
  expect(JSON.parse(skipped.stdout)).toEqual({ imported: true, read: 9, listed: 3, added: 3, updated: 0, unchanged: 0, removed: 0, refused: 6 });
  expect(skipped.stderr).toContain('Imported 3 companies: 3 added, 0 updated, 0 unchanged; 6 refused lines skipped');

  const again = await cli(['import', csv, '--skip-invalid']);
  expect(JSON.parse(again.stdout)).toMatchObject({ imported: true, added: 0, updated: 0, unchanged: 3 });
  expect(again.stderr).toContain('Nothing changed: the 3 companies listed are already as the list says');

  // A field the list leaves empty keeps the company's value; a changed one updates only that company.
  const changed = await cli(['import', file('changed.csv', ['name,domain', 'Alpha Two,alpha.example', ',beta.example', 'Bücher,xn--bcher-kva.example'])]);
  expect(JSON.parse(changed.stdout)).toMatchObject({ imported: true, added: 0, updated: 1, unchanged: 2 });
  const mine = (await listed()).filter((c) => c.domain.endsWith('.example'));
  expect(mine).toEqual([
    { domain: 'alpha.example', name: 'Alpha Two', category: 'ai-ml', website: 'https://alpha.example', source: 'curated', score: null, grade: null, scannedAt: null },
    { domain: 'beta.example', name: 'beta.example', category: null, website: 'https://beta.example', source: 'curated', score: null, grade: null, scannedAt: null },
    { domain: 'xn--bcher-kva.example', name: 'Bücher', category: null, website: 'https://xn--bcher-kva.example', source: 'curated', score: null, grade: null, scannedAt: null },
  ]);
}, 300_000);

test('add, rename, move and remove one company at a time; unknown domains change nothing', async () => {
  const added = await cli(['add', 'Community.Example', '--source', 'community', '--name', 'Community Co', '--category', 'ai-ml']);
  expect(added.code).toBe(0);
  expect(JSON.parse(added.stdout)).toEqual({ domain: 'community.example', name: 'Community Co', website: 'https://community.example', category: 'ai-ml', source: 'community' });
  const twice = await cli(['add', 'community.example']);
  expect(twice.code).toBe(1);
  expect(twice.stderr).toContain('community.example is listed already');

  expect((await cli(['rename', 'community.example', 'Community Two'])).stderr).toContain('Renamed community.example to "Community Two".');
  expect((await cli(['move', 'community.example', 'beta.example', '--category', 'media-content'])).stderr).toContain('Moved 2 of 2 companies to media-content.');
  const unknown = await cli(['remove', 'beta.example', 'nosuch.example']);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('No company nosuch.example');
  const removed = await cli(['remove', 'beta.example']);
  expect(removed).toMatchObject({ code: 0, stdout: 'beta.example\n' });
  // What they did is read back by the list test below.
}, 300_000);

test('list: the same companies as CSV (the import format) and as JSON, in domain order', async () => {
  const csv = await cli(['list', '--category', 'media-content']);
  const json = await cli(['list', '--category', 'media-content', '--format', 'json']);
  const rows = parseCsv(csv.stdout, { columns: true }) as Array<Record<string, string>>;
  const objects = JSON.parse(json.stdout) as Listed[];
  expect(Object.keys(rows[0])).toEqual(['domain', 'name', 'category', 'website', 'source', 'score', 'grade', 'scanned_at']);
  expect(rows.map((r) => r.domain)).toEqual(objects.map((o) => o.domain));
  expect(rows.map((r) => r.domain)).toEqual([...rows.map((r) => r.domain)].sort());
  expect(csv.stderr).toContain(`Listed ${rows.length} companies.`);
  // add, rename and move above; beta.example was moved here, then removed.
  expect(rows.filter((r) => r.domain.endsWith('.example'))).toEqual([
    { domain: 'community.example', name: 'Community Two', category: 'media-content', website: 'https://community.example', source: 'community', score: '', grade: '', scanned_at: '' },
  ]);
  expect(objects.find((o) => o.domain === 'community.example')).toEqual({
    domain: 'community.example', name: 'Community Two', category: 'media-content', website: 'https://community.example', source: 'community', score: null, grade: null, scannedAt: null,
  });
});

test('rescan: starts or joins through the scan service, within the queue\'s room', async () => {
  const first = await cli(['rescan', 'stripe.com', 'xn--bcher-kva.example']);
  expect(first.code).toBe(0);
  const started = first.stdout.trim().split('\n').map((l) => l.split('\t'));
  expect(started.map(([domain, , how]) => [domain, how])).toEqual([['stripe.com', 'started'], ['xn--bcher-kva.example', 'started']]);
  const again = await cli(['rescan', 'Stripe.com']);
  expect(again.stdout).toBe(`stripe.com\t${started[0][1]}\tjoined\n`);

  // Two scans wait; a limit of 3 leaves room for one: alpha.example (domain order) starts, the seeded ai-ml ones do not.
  const seededAiMl = (JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../prisma/seed/companies.json'), 'utf8')) as Array<{ category: string }>)
    .filter((c) => c.category === 'ai-ml').length;
  const full = await cli(['rescan', '--category', 'ai-ml'], { SCAN_QUEUE_LIMIT: '3' });
  expect(full.code).toBe(2);
  expect(full.stdout).toMatch(/^alpha\.example\t[0-9a-f-]{36}\tstarted\n$/);
  expect(full.stderr).toContain(`The scan queue is full (SCAN_QUEUE_LIMIT 3 waiting scans): ${seededAiMl} companies were not queued.`);

  const stale = await cli(['rescan', '--stale', '1', '--source', 'community']);
  expect(stale.stdout).toMatch(/^community\.example\t[0-9a-f-]{36}\tstarted\n$/);
  const unknown = await cli(['rescan', 'nosuch.example']);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('No company nosuch.example');

  const scans = await withDb((db) => db.prisma.scan.findMany({ where: { origin: 'rescan' }, orderBy: { domain: 'asc' }, select: { domain: true, state: true, companyId: true } }));
  expect(scans.map((s) => [s.domain, s.state, s.companyId !== null])).toEqual([
    ['alpha.example', 'waiting', true], ['community.example', 'waiting', true], ['stripe.com', 'waiting', true], ['xn--bcher-kva.example', 'waiting', true],
  ]);
}, 300_000);

test('a Tranco list with --top, --category and --prune: unlisted curated companies go, their scans stay', async () => {
  const curatedBefore = (await listed('--source', 'curated')).map((c) => c.domain);
  expect(curatedBefore).toContain('stripe.com');
  const tranco = file('tranco.csv', ['1,alpha.example', '2,zeta.example', '3,ETA.example.', '4,theta.example']);
  const pruned = await cli(['import', tranco, '--top', '3', '--category', 'developer-tools', '--prune']);
  expect(pruned.code).toBe(0);
  // alpha.example moves from ai-ml to developer-tools (updated); every other curated company is removed.
  expect(JSON.parse(pruned.stdout)).toEqual({ imported: true, read: 3, listed: 3, added: 2, updated: 1, unchanged: 0, removed: curatedBefore.length - 1, refused: 0 });
  expect(pruned.stderr).toContain('their scans stay readable by scan id');

  const after = await listed();
  expect(after.filter((c) => c.source === 'curated').map((c) => [c.domain, c.category])).toEqual([
    ['alpha.example', 'developer-tools'], ['eta.example', 'developer-tools'], ['zeta.example', 'developer-tools'],
  ]);
  expect(after.filter((c) => c.source === 'community').map((c) => c.domain)).toEqual(['community.example']);
  // scans.company_id is ON DELETE SET NULL: the pruned company's scan is still there, readable by its id.
  const stripeScan = await withDb((db) => db.prisma.scan.findFirstOrThrow({ where: { domain: 'stripe.com' }, select: { id: true, companyId: true, state: true } }));
  expect(stripeScan).toMatchObject({ companyId: null, state: 'waiting' });

  const again = await cli(['import', tranco, '--top', '3', '--category', 'developer-tools', '--prune']);
  expect(JSON.parse(again.stdout)).toMatchObject({ added: 0, updated: 0, unchanged: 3, removed: 0 });
  const none = await cli(['import', file('no-rows.csv', ['domain']), '--prune']);
  expect(none.code).toBe(1);
  expect(none.stderr).toContain('--prune would remove every curated company');
}, 300_000);

// The CLI beside a running API process needs a database two processes can open: PostgreSQL.
if (pgUrl) {
  test('PostgreSQL: an import, a rescan (waiting for room in the queue), a rename and a prune reach a running API process without a restart', async () => {
    // No worker yet: the rescan below must first meet a full queue.
    const t = await startScanTestServer({ worker: false });
    let background: Background | null = null;
    const live = { ...env, DATABASE_URL: withSchema(pgUrl, t.runtime.db.schema), SCAN_ALLOW_PRIVATE_NETWORKS: 'true' };
    const run = (args: string[]) => cli(args, live);
    const company = (domain: string) => fetch(`${t.leaderboardUrl}/v1/leaderboard/companies/${domain}`);
    const ranked = async () =>
      ((await (await fetch(`${t.leaderboardUrl}/v1/leaderboard`)).json()) as { items: Array<{ company: { domain: string; name: string } }> }).items.map((e) => [e.company.domain, e.company.name]);
    try {
      expect((await company('exemplary-co.test')).status).toBe(404);
      expect(await ranked()).toEqual([]); // the index is loaded
      const list = file('live.csv', [
        'domain,name,website',
        `exemplary-co.test,Exemplary,${t.urlOf('exemplary')}`,
        `typical-saas.test,Typical,${t.urlOf('typical-saas')}`,
      ]);
      expect(JSON.parse((await run(['import', list])).stdout)).toMatchObject({ imported: true, added: 2 });
      // Unscored, so not ranked, but operation 3 of the running process reads it at once.
      const read = await company('exemplary-co.test');
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ name: 'Exemplary', domain: 'exemplary-co.test', score: null });

      // A queue of one waiting scan: the second company waits (--wait) until a worker takes the first.
      const rescanning = cliLive(['rescan', 'exemplary-co.test', 'typical-saas.test', '--wait'], { ...live, SCAN_QUEUE_LIMIT: '1' });
      const scans = () => t.db.prisma.scan.findMany({ where: { origin: 'rescan' }, select: { domain: true } });
      await pollUntil('the first rescan', async () => (await scans()).length === 1, 120_000);
      // The worker may start only once the CLI has met the full queue: started earlier, it could take the first scan
      // before a slow CLI tries the second, which would then find room and never wait.
      await pollUntil('the CLI to wait for room in the queue', async () => rescanning.seen.stderr.includes('waiting for room'), 120_000);
      // A negative check: while the queue is full the second scan is not queued (the sleep gives it a chance to be).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await scans()).map((s) => s.domain)).toEqual(['exemplary-co.test']);
      background = startBackground(t.runtime, { pollMs: 100 });
      const rescan = await rescanning.done;
      expect(rescan.code).toBe(0);
      expect(rescan.stderr).toContain('the scan queue is full (SCAN_QUEUE_LIMIT 1); waiting for room');
      expect(rescan.stdout).toMatch(/^exemplary-co\.test\t\S+\tstarted\ntypical-saas\.test\t\S+\tstarted\n$/);
      const ids = rescan.stdout.trim().split('\n').map((l) => l.split('\t')[1]);
      for (const id of ids) expect(await t.waitForEnd(id, 120_000)).toMatchObject({ ending: 'finished' });
      // Operation 6 reports the end once the transaction commits; the ranking is applied just after it (scan-job.ts).
      const both = ['exemplary-co.test', 'typical-saas.test'];
      await pollUntil('both companies in operation 1', async () => JSON.stringify((await ranked()).map(([domain]) => domain).sort()) === JSON.stringify(both), 120_000);
      expect((await ranked()).map(([domain]) => domain).sort()).toEqual(both);

      expect((await run(['rename', 'exemplary-co.test', 'Exemplary Renamed'])).code).toBe(0);
      await pollUntil('the rename in operation 1', async () => (await ranked()).some(([, name]) => name === 'Exemplary Renamed'), 120_000);

      // A deletion leaves no change_version behind: the CLI's reload is what removes it from the running index.
      const pruned = await run(['import', file('live-2.csv', ['1,typical-saas.test']), '--prune']);
      expect(JSON.parse(pruned.stdout)).toMatchObject({ imported: true, unchanged: 1, removed: 72 }); // exemplary and the 71 seeded
      await pollUntil('the prune in operation 1', async () => JSON.stringify(await ranked()) === JSON.stringify([['typical-saas.test', 'Typical']]), 120_000);
      expect((await company('exemplary-co.test')).status).toBe(404);
      expect((await fetch(`${t.leaderboardUrl}/v1/leaderboard/scans/${ids[0]}`)).status).toBe(200); // its scan stays readable
    } finally {
      await background?.stop(5_000);
      await t.close();
    }
  }, 300_000);
}
