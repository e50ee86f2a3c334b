// The proof that a frontend team can use the client: both packages are packed (npm pack), installed from their
// tarballs into a scratch Vite project outside the workspace, type-checked and built there, and the page runs in
// headless Chromium against a really listening server on another origin. The page is served from a host name that
// is not a secure context, so the request ids come from the fallback, as on a LAN deployment over plain HTTP.
// The API's reference page (/docs) is opened in the same browser: it renders and loads nothing from elsewhere.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { pollUntil, startScanTestServer, type ScanTestServer } from './support/scan-harness';

const repoRoot = path.resolve(__dirname, '../../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const APP_HOST = 'frontend.test'; // mapped to 127.0.0.1 inside Chromium: a plain-HTTP origin that is not a secure context

let t: ScanTestServer;
let scratch: string;
let site: http.Server;
let siteUrl: string;
let browser: Browser;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

function serveStatic(dir: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(dir, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  t = await startScanTestServer({ latencyMs: 0 });
  // Two companies with real results, through the real pipeline.
  await Promise.all(
    (['exemplary', 'typical-saas'] as const).map(async (persona) => {
      const { data } = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf(persona) } });
      await t.waitForEnd(data!.scan.id);
    }),
  );

  // Pack the two packages and install them, from their tarballs only, into a project outside the workspace.
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-frontend-'));
  const vendor = path.join(scratch, 'vendor');
  fs.mkdirSync(vendor);
  run('npm', ['pack', '-w', '@arl/contract', '-w', '@arl/client', '--pack-destination', vendor, '--silent'], repoRoot);
  const tarballs = fs.readdirSync(vendor).sort();
  expect(tarballs).toEqual(['arl-client-0.0.0.tgz', 'arl-contract-0.0.0.tgz']);
  fs.cpSync(path.join(__dirname, 'fixtures/browser-app'), scratch, { recursive: true });
  fs.writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'scratch-frontend', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs.map((f) => `./vendor/${f}`)], scratch);
  // Type-check the page against the types the installed packages declare.
  run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(scratch, 'tsconfig.json')], scratch);
  run(process.execPath, [path.join(__dirname, 'support/vite-build.mjs'), scratch], repoRoot);

  site = await serveStatic(path.join(scratch, 'dist'));
  siteUrl = `http://${APP_HOST}:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_FLAGS, `--host-resolver-rules=MAP ${APP_HOST} 127.0.0.1`],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  await t?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

test('the scratch project installed only the two tarballs and their public dependencies', () => {
  const installed = fs.readdirSync(path.join(scratch, 'node_modules/@arl')).sort();
  expect(installed).toEqual(['client', 'contract']);
  // Nothing links back into the workspace.
  for (const name of installed) expect(fs.lstatSync(path.join(scratch, 'node_modules/@arl', name)).isSymbolicLink()).toBe(false);
  const bundle = fs.readdirSync(path.join(scratch, 'dist/assets')).filter((f) => f.endsWith('.js')).map((f) => fs.readFileSync(path.join(scratch, 'dist/assets', f), 'utf8')).join('\n');
  expect(bundle).not.toMatch(/node:|process\.cwd|__dirname/);
});

test('the page lists the leaderboard and shows a company report, calling the API on another origin', async () => {
  const page = await browser.newPage();
  const origins = new Set<string>();
  const problems: string[] = [];
  page.on('request', (r) => origins.add(new URL(r.url()).origin));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${siteUrl}/?api=${encodeURIComponent(t.leaderboardUrl)}`);
  await page.waitForSelector('body[data-state="done"], body[data-state="failed"]', { timeout: 120_000 });
  expect(await page.textContent('#error')).toBe('');
  expect(problems).toEqual([]);

  const { data: board } = await t.client.GET('/v1/leaderboard', { params: { query: { community: 'include', limit: 10 } } });
  const rows = await page.$$eval('#leaderboard li', (lis) => lis.map((li) => li.textContent));
  expect(rows).toEqual(board!.items.map((e) => `#${e.rank} ${e.company.name} (${e.company.domain}) ${e.score} ${e.grade}`));
  expect(rows.length).toBe(2);

  const top = board!.items[0].company.domain;
  const { data: report } = await t.client.GET('/v1/leaderboard/companies/{domain}/report', { params: { path: { domain: top }, query: { community: 'include' } } });
  expect(await page.textContent('#report h2')).toBe(`${top}: ${report!.score} (${report!.grade})`);
  expect(await page.getAttribute('#report', 'data-checks')).toBe(String(report!.checks.length));
  expect(await page.textContent('#grades')).toBe('Grades: A+ A B C D F · layers: discovery, access, usability, payments');

  // Not a secure context, so no crypto.randomUUID: the request id came from the fallback, and the server echoed it
  // in a header the page could read (exposed by CORS).
  expect(await page.textContent('#context')).toBe('secure=false randomUUID=undefined');
  expect(await page.getAttribute('body', 'data-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect([...origins].sort()).toEqual([siteUrl, t.leaderboardUrl].sort());
  await page.close();
});

test('the API reference page renders in the browser and loads nothing from another origin', async () => {
  const page = await browser.newPage();
  const origins = new Set<string>();
  const blocked: string[] = [];
  page.on('request', (r) => origins.add(new URL(r.url()).origin));
  page.on('console', (m) => /Content Security Policy/i.test(m.text()) && blocked.push(m.text()));
  await page.goto(`${t.leaderboardUrl}/docs`);
  await pollUntil('the reference page to render', async () => (await page.textContent('body'))?.includes('Read a scan\'s full report'), 120_000, 200);
  expect([...origins].filter((o) => o !== t.leaderboardUrl && !o.startsWith('data:') && !o.startsWith('blob:') && o !== 'null')).toEqual([]);
  expect(blocked.filter((b) => /script/i.test(b))).toEqual([]);
  await page.close();
});
