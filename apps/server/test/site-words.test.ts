// What a scanned site says about itself is an attacker's input (issue 40). Sites on loopback name themselves with
// the shapes an attacker would use (formulas, Markdown and HTML, control, zero-width and bidi characters, a
// 200-character word); each is scanned through the API as anyone could. The stored name has passed the one door
// (cleanSiteText), the open dataset's CSV cells are inert in a spreadsheet, and the Markdown pages show the words,
// never a link, an image or raw HTML. The one CSV writer and the migration that cleans names stored before the
// door are checked on the same shapes.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { parse } from 'csv-parse/sync';
import { csvCell, csvCellValue, csvRow } from '../src/text/csv';
import { startBackground, type Background } from '../src/jobs/background';
import { startTestServer, type TestServer } from './support/harness';
import { waitForScanEnd } from './support/scan-harness';

/** Each site's og:site_name (its key is the site's host label) and the name that must be stored. */
const NAMES: Record<string, { says: string; stored: string }> = {
  hyperlink: { says: '=HYPERLINK("http://attacker.test","click")', stored: '=HYPERLINK("http://attacker.test","click")' },
  cmd: { says: "+cmd|' /C calc'!A0", stored: "+cmd|' /C calc'!A0" },
  sum: { says: '@SUM(1+1)', stored: '@SUM(1+1)' },
  minus: { says: "-2+3+cmd|' /C calc'!A0", stored: "-2+3+cmd|' /C calc'!A0" },
  tab: { says: '\t=1+1', stored: '=1+1' },
  img: { says: '# <img src=x onerror=alert(1)>', stored: '# <img src=x onerror=alert(1)>' },
  link: { says: 'Evil](http://attacker.test/phish) | 1 | [Fake', stored: 'Evil](http://attacker.test/phish) | 1 | [Fake' },
  bell: { says: 'Bell\u0007 Co', stored: 'Bell Co' },
  rlo: { says: 'Evil\u202Emoc.liam', stored: 'Evilmoc.liam' },
  zwsp: { says: 'Zero\u200Bwidth', stored: 'Zerowidth' },
  long: { says: 'W'.repeat(200), stored: 'W'.repeat(120) },
};
const FORMULA = /^[=+\-@\t\r]/;

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
let site: http.Server;
let port = 0;
let t: TestServer;
let background: Background;
const domains: Record<string, string> = {};

beforeAll(async () => {
  site = http.createServer((req, res) => {
    const key = (req.headers.host ?? '').replace(/-site\.test(:\d+)?$/, '');
    const name = NAMES[key]?.says;
    if (req.url !== '/' || name === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home</title>
      <meta property="og:site_name" content="${attr(name)}"></head><body><main><h1>Welcome</h1><p>A site.</p></main></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  port = (site.address() as AddressInfo).port;
  const lookup = async (hostname: string) => {
    if (!hostname.endsWith('-site.test')) throw Object.assign(new Error(`unknown host ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address: '127.0.0.1', family: 4 as const }];
  };
  t = await startTestServer({ env: { SCAN_RATE_LIMIT: '0' }, fetchPolicy: { lookup, requestTimeoutMs: 60_000, scanBudgetMs: 120_000 }, dbName: 'words' });
  background = startBackground(t.runtime, { pollMs: 50 });
  // Every site scanned through the API, as anyone may submit a scan of a site they control.
  const scans = await Promise.all(Object.keys(NAMES).map(async (key) => {
    const res = await fetch(`${t.leaderboardUrl}/v1/leaderboard/scans`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `http://${key}-site.test:${port}/` }),
    });
    expect(res.status).toBe(202);
    return { key, id: ((await res.json()) as { scan: { id: string } }).scan.id };
  }));
  for (const { key, id } of scans) {
    const ended = await waitForScanEnd(t.leaderboardUrl, id);
    expect(ended.ending).toBe('finished');
    domains[key] = `${key}-site.test`;
  }
});

afterAll(async () => {
  await background?.stop(5000);
  await t?.close();
  await new Promise((resolve) => site?.close(resolve));
});

test('the stored name is the site text after the door: no control, zero-width or bidi character, at most 120 characters', async () => {
  for (const [key, { stored }] of Object.entries(NAMES)) {
    const res = await fetch(`${t.leaderboardUrl}/v1/leaderboard/companies/${domains[key]}?community=include`);
    expect(res.status).toBe(200);
    expect({ key, name: ((await res.json()) as { name: string }).name }).toEqual({ key, name: stored });
  }
});

test('the open dataset CSV: every formula cell is text in a spreadsheet, and reads back as the stored name', async () => {
  const res = await fetch(`${t.leaderboardUrl}/v1/leaderboard/dataset.csv?community=include`);
  expect(res.status).toBe(200);
  const body = await res.text();
  const rows = parse(body, { columns: true, relax_column_count: false }) as Array<Record<string, string>>;
  for (const [key, { stored }] of Object.entries(NAMES)) {
    const row = rows.find((r) => r.domain === domains[key]);
    expect(row).toBeDefined();
    // A spreadsheet shows a cell that starts with a single quote as text; nothing else of the name changes.
    expect({ key, cell: row!.name }).toEqual({ key, cell: FORMULA.test(stored) ? `'${stored}` : stored });
    expect(csvCellValue(row!.name)).toBe(stored);
  }
  // No cell of any line begins with a formula character, quoted or not.
  for (const line of body.split('\r\n')) {
    for (const cell of parse(line, { relax_quotes: true })[0] ?? []) expect(FORMULA.test(cell)).toBe(false);
  }
});

test('Markdown pages show the names as words: no link, image, heading or raw HTML comes from a name', async () => {
  const board = await (await fetch(`${t.leaderboardUrl}/?community=include`, { headers: { accept: 'text/markdown' } })).text();
  // Markup characters of a name only ever appear backslash-escaped.
  expect(board).not.toMatch(/(?<!\\)<img/);
  expect(board).not.toMatch(/(?<!\\)\]\(http:\/\/attacker/);
  expect(board).toContain('Evil\\]\\(http://attacker.test/phish\\) \\| 1 \\| \\[Fake');
  expect(board).toContain('\\# \\<img src=x onerror=alert\\(1\\)\\>');
  // Each row of the table still has its 9 cells: a name's pipes do not make columns.
  const rows = board.split('\n').filter((l) => l.includes('-site.test'));
  expect(rows).toHaveLength(Object.keys(NAMES).length);
  for (const row of rows) expect(row.split(/(?<!\\)\|/).length - 2).toBe(9);

  const page = await (await fetch(`${t.leaderboardUrl}/companies/${domains.img}?community=include`, { headers: { accept: 'text/markdown' } })).text();
  expect(page.split('\n')[0]).toBe('# \\# \\<img src=x onerror=alert\\(1\\)\\>');
  expect(page).not.toMatch(/(?<!\\)<img/);
});

describe('the one CSV writer (every CSV the server writes)', () => {
  it.each([
    ['=HYPERLINK("http://x","click")', `"'=HYPERLINK(""http://x"",""click"")"`],
    ["+cmd|' /C calc'!A0", `"'+cmd|' /C calc'!A0"`],
    ['@SUM(1+1)', `"'@SUM(1+1)"`],
    ['-2+3', `"'-2+3"`],
    ['\t=1+1', `"'\t=1+1"`],
    ['\r=1+1', `"'\r=1+1"`],
    ['＝1+1', `"'＝1+1"`],
    ['Acme, Inc.', '"Acme, Inc."'],
    ['Say "hi"', '"Say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['Acme', 'Acme'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('%j is written %s', (value, written) => {
    expect(csvCell(value)).toBe(written);
    // And a reader gets the value back (with the single quote that makes a formula text).
    const [[read]] = parse(csvRow([value]), { relax_quotes: true }) as string[][];
    expect(read).toBe(FORMULA.test(value) || value.startsWith('＝') ? `'${value}` : value);
    expect(csvCellValue(read)).toBe(value);
  });
});

test('the migration cleans names stored before the door, as the door would', async () => {
  const sql = fs.readFileSync(path.resolve(__dirname, '../../../prisma/migrations/20261128233000_clean_site_names/migration.sql'), 'utf8');
  const stored = [
    ['before-bell.test', 'Bell\u0007 Co', 'Bell Co'],
    ['before-rlo.test', 'Evil\u202Emoc.liam', 'Evilmoc.liam'],
    ['before-zw.test', '\uFEFFZero\u200Bwidth\u2060', 'Zerowidth'],
    ['before-space.test', ' \tAcme\r\n\u00A0 Corp\u2028Ltd ', 'Acme Corp Ltd'],
    ['before-nfc.test', 'Cafe\u0301', 'Café'],
    ['before-long.test', 'W'.repeat(200), 'W'.repeat(120)],
    ['before-empty.test', '\u200B\u202E', 'before-empty.test'],
    ['before-fine.test', 'Acme (Europe) & Co', 'Acme (Europe) & Co'],
  ];
  for (const [domain, name] of stored) {
    await t.db.executeSql(
      `INSERT INTO companies (id, name, website, domain, source, updated_at) VALUES (gen_random_uuid(), $1, $2, $3, 'curated', now())`,
      [name, `https://${domain}`, domain],
    );
  }
  await t.db.executeSql(sql.replace(/^--.*$/gm, ''));
  const { rows } = await t.db.executeSql(`SELECT domain, name FROM companies WHERE domain LIKE 'before-%' ORDER BY domain`);
  expect(rows).toEqual(stored.map(([domain, , name]) => ({ domain, name })).sort((a, b) => a.domain.localeCompare(b.domain)));
});
