// The compare page and the company page's watch parts in Chromium against the real server: two sandbox personas
// scanned through the real pipeline, "Compare with…" from a company page with and without JavaScript, the table
// at 390 px (the page itself never scrolls sideways; the table scrolls in its own box), axe-core, the badge image
// and its snippet. Screenshots at 1280 and 390 px go to test-output/ (docs/screenshots/compare*.png are their tops).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations, launchBrowser, screenshot } from './support/browser';
import { startSite, type Site } from './support/site';

let site: Site;
let browser: Browser;
let a: string;
let b: string;

beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
  a = (await site.scan('exemplary')).domain;
  b = (await site.scan('typical-saas')).domain;
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function compareFromCompanyPage(ctx: BrowserContext, javaScript: boolean): Promise<Page> {
  const page = await ctx.newPage();
  await page.goto(`${site.baseUrl}/companies/${a}?community=include`);
  if (javaScript) await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  await page.getByLabel('Compare with…').fill(b);
  await Promise.all([page.waitForURL(/\/compare\?/), page.getByRole('button', { name: 'Compare', exact: true }).click()]);
  return page;
}

async function expectComparison(page: Page): Promise<void> {
  const url = new URL(page.url());
  expect(url.pathname).toBe('/compare');
  expect(url.searchParams.get('domains')).toBe(a);
  expect(url.searchParams.get('add')).toBe(b);
  const { data } = await site.api.GET('/v1/leaderboard/compare', { params: { query: { domains: `${a},${b}`, community: 'include' } } });
  const headers = await page.locator('table.compare thead th').allTextContents();
  expect(headers.slice(1).map((h) => h.split(/\s/)[0])).toEqual(data!.companies.map((c) => c.name.split(/\s/)[0]));
  const scoreRow = await page.locator('table.compare tbody tr').first().locator('td').allTextContents();
  data!.companies.forEach((c, i) => {
    expect(scoreRow[i]).toContain(`${c.score}/100`);
    expect(scoreRow[i].includes('ahead')).toBe(data!.score.leaders.includes(c.domain));
  });
  // Every check of the API's answer is a row.
  await expect(page.locator('table.compare tbody tr.compare-check').count()).resolves.toBe(data!.checks.length);
}

test('"Compare with…" on a company page opens the comparison, with JavaScript', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await compareFromCompanyPage(ctx, true);
  await expectComparison(page);
  await ctx.close();
});

test('the same without JavaScript: a plain form and a server-rendered table', async () => {
  const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const page = await compareFromCompanyPage(ctx, false);
  await expectComparison(page);
  // The page can grow to a third company with the same plain form.
  await expect(page.getByLabel('Add a company (domain)').count()).resolves.toBe(1);
  await ctx.close();
});

test('at 390 px the page does not scroll sideways, the table scrolls in its box; no serious axe violation; screenshots', async () => {
  for (const width of [1280, 390]) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
    const page = await ctx.newPage();
    await page.goto(`${site.baseUrl}/compare?domains=${a},${b}&community=include`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect({ width, overflow }).toEqual({ width, overflow: 0 });
    const box = await page.locator('.compare-scroll').boundingBox();
    expect(box!.width).toBeLessThanOrEqual(width);
    const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await screenshot(page, width === 1280 ? 'compare' : 'compare-390');
    await ctx.close();
  }
});

test('the company page shows its badge (a real SVG) and the snippet to paste', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(`${site.baseUrl}/companies/${a}?community=include`);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  const img = page.locator('.badge-snippet img');
  await page.waitForFunction(() => (document.querySelector('.badge-snippet img') as HTMLImageElement | null)?.complete === true);
  expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(50);
  const snippet = await page.locator('.badge-snippet pre').first().textContent();
  expect(snippet).toBe(`[![Agent readiness of ${await page.locator('h1').textContent()}](${site.baseUrl}/v1/leaderboard/companies/${a}/badge.svg?community=include)](${site.baseUrl}/companies/${a}?community=include)`);
  await expect(page.getByRole('button', { name: 'Copy Markdown badge snippet' }).count()).resolves.toBe(1);
  await ctx.close();
});
