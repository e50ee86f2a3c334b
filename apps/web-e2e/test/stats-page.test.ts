// "The state of agent readiness" (/stats, issue 31) in Chromium against the real server: sandbox personas scanned
// through the real pipeline (community companies) with categories and three earlier weeks of history, so the page
// has trends and a per-category table. Without JavaScript it reads whole; at 390 px nothing scrolls sideways; axe
// finds nothing serious in light or dark; each headline figure equals the API's and links its methodology entry;
// the home page links to it. Screenshots: test-output/screenshots/stats-390.png (and its first screen), stats-1280.png.
import * as path from 'node:path';
import type { LeaderboardSchemas } from '@arl/client';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchBrowser, SCREENSHOTS, screenshot } from './support/browser';
import { startSite, type Site } from './support/site';

let site: Site;
let browser: Browser;
let stats: LeaderboardSchemas['PopulationStats'];
const WEEK = 7 * 86_400_000;

beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
  const personas = ['exemplary', 'typical-saas', 'content-site', 'bare-mcp'] as const;
  const scans: Array<{ id: string; domain: string }> = [];
  for (const persona of personas) {
    const scan = await site.scan(persona);
    expect(scan.ending).toBe('finished');
    scans.push({ id: scan.id, domain: scan.domain });
  }
  const db = site.runtime.db;
  const categories = ['Developer tools', 'Media'];
  for (const [i, name] of categories.entries()) {
    await db.prisma.category.upsert({ where: { slug: name.toLowerCase().replace(/ /g, '-') }, update: {}, create: { slug: name.toLowerCase().replace(/ /g, '-'), name } });
  }
  // Categories, and earlier weeks in which each company's latest scan was another's (a trend that moves).
  for (const [i, scan] of scans.entries()) {
    const category = await db.prisma.category.findUniqueOrThrow({ where: { slug: i % 2 ? 'media' : 'developer-tools' } });
    const company = await db.prisma.company.update({ where: { domain: scan.domain }, data: { categoryId: category.id }, select: { id: true } });
    // Company i is in weeks 1..i before this one: the population grows week by week and the shares move.
    for (let week = 1; week <= i; week++) {
      const earlier = scans[(i + week) % scans.length];
      await db.executeSql(
        `INSERT INTO score_history (company_id, scan_id, score, grade, recorded_at) SELECT $1::uuid, id, score, grade, $3::timestamptz FROM scans WHERE id = $2::uuid`,
        [company.id, earlier.id, new Date(Date.now() - week * WEEK).toISOString()],
      );
    }
    await site.runtime.changes.publish({ kind: 'ids', ids: [company.id] });
  }
  // The index and its scan details load on first use (a fresh start counts companies as their details arrive).
  await site.runtime.leaderboard.current();
  await site.runtime.leaderboard.fillDetails();
  const { data } = await site.api.GET('/v1/leaderboard/stats', { params: { query: { community: 'include' } } });
  stats = data!;
  expect(stats.countedCompanies).toBe(4);
  expect(stats.weekly.length).toBeGreaterThanOrEqual(4);
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function open(path: string, width: number, javaScript: boolean, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: javaScript, colorScheme, bypassCSP: true });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const response = await page.goto(`${site.baseUrl}${path}`);
  expect(response?.status()).toBe(200);
  if (javaScript) await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  expect(errors).toEqual([]);
  return page;
}

test('without JavaScript the page reads whole: headline shares as the API has them, each linked to its methodology entry, with its trend', async () => {
  const page = await open('/stats?community=include', 1280, false);
  await expect(page.locator('h1').textContent()).resolves.toBe('The state of agent readiness');
  const cards = page.locator('.stat-card');
  expect(await cards.count()).toBeGreaterThanOrEqual(6);
  const robots = stats.checks.find((c) => c.id === 'robots-txt')!;
  const card = cards.filter({ has: page.locator('a[href="/methodology#check-robots-txt"]') });
  const percent = `${(robots.shares.passed * 100).toFixed(robots.shares.passed > 0 && robots.shares.passed < 0.1 ? 1 : 0)} %`;
  await expect(card.locator('.stat-figure strong').textContent()).resolves.toBe(percent);
  await expect(card.locator('svg[role="img"]').getAttribute('aria-label')).resolves.toContain(`${stats.weekly.length} weeks`);
  // Where a public figure exists, the card says whose and links how ours differs.
  await expect(card.locator('.public-figure a').getAttribute('href')).resolves.toBe('/methodology#public-robots-txt');
  // Every figure of the checks table links its check; the categories compare; the dataset is downloadable.
  expect(await page.locator('.checks-table tbody th a[href^="/methodology#check-"]').count()).toBe(stats.checks.length);
  expect(await page.locator('.categories-table tbody tr').count()).toBe(2);
  await expect(page.locator('a[download]').first().getAttribute('href')).resolves.toBe(stats.dataset.formats[0].url);
  await screenshot(page, 'stats-1280');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'stats-1280-first-screen.png') });
  await page.context().close();
});

test.each([[true, 'light'], [false, 'light'], [true, 'dark']] as const)('at 390 px (JavaScript %s, %s) nothing scrolls sideways (and axe finds nothing serious)', async (javaScript, scheme) => {
  const page = await open('/stats?community=include', 390, javaScript, scheme);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
  // axe runs as a script in the page: with JavaScript off the page is the same server-rendered document, checked
  // with JavaScript on.
  if (javaScript) {
    const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious).toEqual([]);
  }
  if (javaScript && scheme === 'light') {
    await screenshot(page, 'stats-390');
    // The first screen as a phone shows it (the full page is ten screens long).
    await page.screenshot({ path: path.join(SCREENSHOTS, 'stats-390-first-screen.png') });
  }
  await page.context().close();
});

test('the home page links to it, the methodology says how our definitions differ, agents get Markdown', async () => {
  const home = await open('/', 1280, false);
  await expect(home.locator('nav a[href="/stats"]').textContent()).resolves.toBe('State of readiness');
  await home.context().close();
  const methodology = await open('/methodology', 1280, false);
  await expect(methodology.locator('#public-llms-txt').textContent()).resolves.toContain('Web Almanac 2025');
  await methodology.context().close();
  const markdown = await fetch(`${site.baseUrl}/stats?community=include`, { headers: { accept: 'text/markdown' } });
  expect(markdown.status).toBe(200);
  const text = await markdown.text();
  expect(text.startsWith('# The state of agent readiness\n')).toBe(true);
  expect(text).toContain('/v1/leaderboard/dataset.csv?community=include');
  // An empty population is a page too, not an error.
  const empty = await open('/stats?category=', 390, false);
  await expect(empty.locator('.notice').textContent()).resolves.toContain('No company is counted here yet');
  await empty.context().close();
});
