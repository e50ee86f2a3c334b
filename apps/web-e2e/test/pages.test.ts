// The web pages in Chromium against the real server: seeded curated companies (never scanned: the empty state),
// sandbox personas scanned through the real pipeline (community companies), the feedback host for reports.
import type { LeaderboardSchemas } from '@arl/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations, launchBrowser, screenshot } from './support/browser';
import { startSite, waitForScan, type Site } from './support/site';

let site: Site;
let browser: Browser;
let context: BrowserContext;
const scanIds: Record<string, string> = {};

beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
  for (const persona of ['exemplary', 'typical-saas', 'content-site'] as const) {
    const scan = await site.scan(persona);
    expect(scan.ending).toBe('finished');
    scanIds[persona] = scan.id;
  }
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Playwright's waits (a page to load, a URL, an element) get a deadline far beyond their normal time: it only catches
  // a hang, and a loaded machine can stretch a page load to many seconds.
  context.setDefaultTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.baseUrl });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** Opens a page and, unless JavaScript is off, waits until it is hydrated (main.tsx marks the root). */
async function open(path: string, ctx: BrowserContext = context, javaScript = true): Promise<Page> {
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const response = await page.goto(`${site.baseUrl}${path}`);
  expect(response?.status()).toBeLessThan(500);
  if (javaScript) await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  (page as Page & { errors: string[] }).errors = errors;
  return page;
}

/**
 * Retries the probe until the assertion holds (or throws its last failure after the timeout, far beyond the normal wait:
 * it only catches a hang).
 */
async function eventually<T>(probe: () => Promise<T>, assert: (value: T) => void, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      assert(await probe());
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const rowNames = (page: Page) => page.locator('table.board tbody tr td.company a').allTextContents();

async function apiNames(query: Record<string, string | number>): Promise<string[]> {
  const { data } = await site.api.GET('/v1/leaderboard', { params: { query: { limit: 100, ...query } as never } });
  return data!.items.map((e) => e.company.name);
}

describe('leaderboard page', () => {
  test('a fresh start tells the truth: nothing ranked, the seeded companies counted, the demo explained', async () => {
    const page = await open('/');
    await expect(page.locator('h1').textContent()).resolves.toBe('Agent-Readiness Leaderboard');
    const empty = page.locator('section.empty');
    await expect(empty.textContent()).resolves.toContain('71 seeded companies');
    await expect(empty.textContent()).resolves.toContain('71 not scanned yet');
    await expect(empty.textContent()).resolves.toContain('npm run demo');
    await expect(empty.textContent()).resolves.toContain('3 community companies have a score');
    await page.close();
  });

  test('lists what the API lists, in rank order, with grades and 7-day movement', async () => {
    const page = await open('/?community=include');
    const expected = await apiNames({ community: 'include' });
    expect(expected).toHaveLength(3);
    await expect(rowNames(page)).resolves.toEqual(expected);
    const { data } = await site.api.GET('/v1/leaderboard', { params: { query: { community: 'include' } } });
    const first = page.locator('table.board tbody tr').first();
    await expect(first.locator('td.rank').textContent()).resolves.toBe(String(data!.items[0].rank));
    await expect(first.locator('td.score').textContent()).resolves.toBe(String(data!.items[0].score));
    await expect(first.locator('.grade').textContent()).resolves.toBe(data!.items[0].grade);
    await expect(first.locator('.badge-new').textContent()).resolves.toBe('New this week');
    await expect(first.locator('td.movement').textContent()).resolves.toContain('not ranked a week ago');
    await page.close();
  });

  test('search narrows the list as you type, matches the API, and the URL reproduces the view', async () => {
    const page = await open('/?community=include');
    await page.getByLabel('Search').fill('fern');
    await page.waitForURL(/q=fern/);
    const expected = await apiNames({ community: 'include', q: 'fern' });
    expect(expected).toEqual(['The Fern Journal']);
    await eventually(() => rowNames(page), (v) => expect(v).toEqual(expected));
    await page.reload();
    await expect(rowNames(page)).resolves.toEqual(expected);
    await expect(page.getByLabel('Search').inputValue()).resolves.toBe('fern');
    await page.close();
  });

  test('sort, order and category filter give the API\'s answer', async () => {
    const page = await open('/?community=include');
    await page.getByLabel('Sort by').selectOption('company');
    await page.getByLabel('Order').selectOption('desc');
    await page.waitForURL(/sort=company&order=desc/);
    const expected = await apiNames({ community: 'include', sort: 'company', order: 'desc' });
    await eventually(() => rowNames(page), (v) => expect(v).toEqual(expected));
    expect(expected).toEqual([...expected].sort((a, b) => b.localeCompare(a)));

    const { data: categories } = await site.api.GET('/v1/leaderboard/categories');
    const slug = categories!.items[0].slug;
    await page.getByLabel('Category').selectOption(slug);
    await page.waitForURL(new RegExp(`category=${slug}`));
    await eventually(() => page.locator('.result-count').textContent(), (v) => expect(v).toContain('0 companies match'));
    expect(await apiNames({ community: 'include', sort: 'company', order: 'desc', category: slug })).toEqual([]);
    await expect(page.locator('main').textContent()).resolves.toContain('No company matches these filters');
    await page.close();
  });

  test('next pages by cursor load as the list scrolls, in the API\'s order', async () => {
    // The server renders one company and a next-page link; the browser loads the rest as the link comes into view.
    const html = await (await fetch(`${site.baseUrl}/?community=include&limit=1`)).text();
    expect(html.match(/<td class="company"/g)).toHaveLength(1);
    expect(html).toMatch(/href="\/\?community=include&amp;limit=1&amp;cursor=[^"]+" rel="next"/);
    const page = await open('/?community=include&limit=1');
    const expected = await apiNames({ community: 'include' });
    expect(expected.length).toBeGreaterThan(2);
    await eventually(async () => {
      await page.mouse.wheel(0, 2000);
      return rowNames(page);
    }, (v) => expect(v).toEqual(expected));
    await expect(page.locator('.pager').count()).resolves.toBe(0);
    await page.close();
  });
});

describe('company page', () => {
  test('score, grade, ranks, the four layers with weights, history and every check grouped by layer', async () => {
    const page = await open('/companies/exemplary-co.test?community=include');
    const { data: company } = await site.api.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain: 'exemplary-co.test' }, query: { community: 'include' } } });
    await expect(page.locator('h1').textContent()).resolves.toBe(company!.name);
    await expect(page.locator('.score-number').textContent()).resolves.toBe(String(company!.score));
    await expect(page.locator('.scorecard .grade').textContent()).resolves.toBe(`Grade ${company!.grade}`);
    await expect(page.locator('.scorecard').textContent()).resolves.toContain(`#${company!.rank} of ${company!.rankedCompanies}`);
    await expect(page.locator('.layer-name').allTextContents()).resolves.toEqual(['Discovery', 'Access', 'Usability', 'Payments']);
    await expect(page.locator('.layer-weight').allTextContents()).resolves.toEqual(company!.layers!.map((l) => `weight ${l.weight}%`));
    await expect(page.locator('.chart svg circle').count()).resolves.toBe(1);
    await expect(page.locator('details.check').count()).resolves.toBe(company!.checks!.length);
    await expect(page.locator('.check-group h3').allTextContents()).resolves.toEqual(expect.arrayContaining(['Discovery', 'Access', 'Usability']));
    expect((page as Page & { errors: string[] }).errors).toEqual([]);
    await page.close();
  });

  test('a check opens to its evidence and fix, and the fix copies to the clipboard', async () => {
    const page = await open('/companies/typical-saas.test?community=include');
    const { data: report } = await site.api.GET('/v1/leaderboard/companies/{domain}/report', { params: { path: { domain: 'typical-saas.test' }, query: { community: 'include' } } });
    const failed = report!.checks.find((c) => c.status === 'failed' && c.fix)!;
    const check = page.locator(`#check-${failed.id} > details`);
    await expect(check.locator('.status-tag').textContent()).resolves.toContain('Failed');
    await check.locator('> summary').click();
    await expect(check.locator('.evidence').textContent()).resolves.toContain(failed.evidence.detail);
    await check.getByRole('button', { name: `Copy the fix for ${failed.name}` }).click();
    await eventually(() => page.evaluate(() => navigator.clipboard.readText()), (v) => expect(v).toBe(failed.fix));
    await page.close();
  });

  test('"this verdict is wrong" files a dispute on the leaderboard feedback project, rescans, and the page shows whether it held', async () => {
    const page = await open('/companies/typical-saas.test?community=include');
    const { data: report } = await site.api.GET('/v1/leaderboard/companies/{domain}/report', { params: { path: { domain: 'typical-saas.test' }, query: { community: 'include' } } });
    const disputed = report!.checks.find((c) => c.status === 'failed')!;
    const check = page.locator(`#check-${disputed.id} > details`);
    await check.locator('> summary').click();
    await check.locator('.verdict-report > summary').click();
    await check.getByLabel(/What is wrong with the verdict/).fill('Our site does publish this; the scan looked at the wrong page.');
    await check.getByRole('button', { name: 'Dispute the verdict' }).click();
    // Post, redirect, get: the company page, at the dispute.
    await page.waitForURL(/\/companies\/typical-saas\.test\?community=include#dispute-[0-9a-f-]{36}$/);
    const disputeId = page.url().split('#dispute-')[1];
    await expect(page.locator(`#dispute-${disputeId}`).textContent()).resolves.toContain(`“${disputed.name}” (${disputed.id}) was disputed as failed`);
    const stored = await site.db.prisma.feedbackReport.findMany({ include: { project: { select: { slug: true } } } });
    expect(stored).toHaveLength(1);
    expect(stored[0].id).toBe(disputeId);
    expect(stored[0].project.slug).toBe('leaderboard');
    expect(stored[0].body).toMatchObject({
      reference: `check:${disputed.id} scan:${report!.scanId}`,
      observation: 'Our site does publish this; the scan looked at the wrong page.',
      surface: 'web',
      metadata: { kind: 'dispute', checkId: disputed.id, scanId: report!.scanId, domain: 'typical-saas.test', status: 'failed' },
    });
    // The rescan ends (the site did not change): reloaded, the page says the verdict held.
    const { data: dispute } = await site.feedback.GET('/v1/feedback/{slug}/reports/{reportId}/dispute', { params: { path: { slug: 'leaderboard', reportId: disputeId } } });
    await waitForScan(site.api, dispute!.rescanId!);
    await page.reload();
    await expect(page.locator(`#dispute-${disputeId}`).textContent()).resolves.toMatch(/^Verdict held: .*The verdict held: the rescan \([0-9a-f-]{36}\) also found "failed"\./);
    await page.close();
  });

  test('the dispute form works without JavaScript', async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const page = await open('/companies/exemplary-co.test?community=include', noJs, false);
    const { data: report } = await site.api.GET('/v1/leaderboard/companies/{domain}/report', { params: { path: { domain: 'exemplary-co.test' }, query: { community: 'include' } } });
    const disputed = report!.checks.find((c) => c.status === 'passed')!;
    const check = page.locator(`#check-${disputed.id} > details`);
    await check.locator('> summary').click();
    await check.locator('.verdict-report > summary').click();
    await check.getByLabel(/What is wrong with the verdict/).fill('This check should not pass: the file is a placeholder.');
    await check.getByRole('button', { name: 'Dispute the verdict' }).click();
    await page.waitForURL(/#dispute-[0-9a-f-]{36}$/);
    await expect(page.locator('#disputes').textContent()).resolves.toContain(`“${disputed.name}” (${disputed.id}) was disputed as passed`);
    await noJs.close();
  });
});

describe('scan and journey pages', () => {
  test('a scan submitted in the page shows its steps live and ends with the score and a link', async () => {
    const page = await open('/scan');
    await page.getByLabel('URL to scan').fill(site.sandbox.urlOf('mcp-app'));
    await page.getByRole('button', { name: 'Start the scan' }).click();
    await page.waitForURL(/\/scans\/[0-9a-f-]{36}$/);
    const scanId = page.url().split('/').pop()!;
    await page.locator('.scorecard .score-number').waitFor({ timeout: 120_000 });
    const scan = await waitForScan(site.api, scanId);
    await expect(page.locator('.score-number').textContent()).resolves.toBe(String(scan.score));
    // The steps arrive live: the last may be drawn a moment after the score.
    await eventually(() => page.locator('ol.steps li').count(), (n) => expect(n).toBe(scan.events.length));
    expect(scan.events.length).toBeGreaterThanOrEqual(5);
    await page.getByRole('link', { name: /See every check/ }).click();
    await page.waitForURL(/\/companies\//);
    await expect(page.locator('.score-number').textContent()).resolves.toBe(String(scan.score));
    scanIds['mcp-app'] = scanId;
    await page.close();
  });

  test('joining a running scan says so', async () => {
    // A scan of the slow persona (4 s or more) is still running when the page asks for the same target: the page is
    // opened and filled in first, so that only the click comes after the scan starts (a loaded machine can take
    // longer than the scan to open a page).
    const page = await open('/scan');
    await page.getByLabel('URL to scan').fill(site.sandbox.urlOf('slow'));
    const { data: first } = await site.api.POST('/v1/leaderboard/scans', { body: { url: site.sandbox.urlOf('slow') } });
    expect(first!.started).toBe(true);
    await page.getByRole('button', { name: 'Start the scan' }).click();
    await page.waitForURL(new RegExp(`/scans/${first!.scan.id}\\?joined=1$`));
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('you joined it');
    await waitForScan(site.api, first!.scan.id);
    await page.close();
  });

  test('a journey: pick a task, watch the steps, read the outcome and the evidence', async () => {
    const page = await open('/companies/exemplary-co.test/journey?community=include');
    await page.getByLabel('Find the pricing').check();
    await page.getByRole('button', { name: 'Start the journey' }).click();
    await page.waitForURL(/\/journeys\/[0-9a-f-]{36}$/);
    const journeyId = page.url().split('/').pop()!;
    let journey: LeaderboardSchemas['Journey'] | undefined;
    await eventually(async () => (journey = (await site.api.GET('/v1/leaderboard/journeys/{journeyId}', { params: { path: { journeyId } } })).data), (j) => expect(j?.state).toBe('ended'));
    expect(journey!.outcome).toBe('succeeded');
    await eventually(() => page.locator('.journey-page .lead strong').textContent(), (t) => expect(t).toBe('✓ Succeeded.'));
    await eventually(() => page.locator('ol.steps li').count(), (n) => expect(n).toBe(journey!.steps.length));
    expect(journey!.steps.length).toBeGreaterThan(0);
    await expect(page.locator('main').textContent()).resolves.toContain(journey!.evidence[0].detail);
    await page.close();
  });

  test('the methodology page shows the formula and every check of the catalog from the API', async () => {
    const page = await open('/methodology');
    const { data } = await site.api.GET('/v1/leaderboard/methodology');
    await expect(page.locator('table.catalog tbody tr').count()).resolves.toBe(data!.checks.length);
    await expect(page.locator('.formula').textContent()).resolves.toContain(`Discovery ${data!.layers[0].weight}%`);
    await page.close();
  });
});

describe('without JavaScript', () => {
  let noJs: BrowserContext;
  beforeAll(async () => {
    noJs = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  });
  afterAll(() => noJs.close());

  test('the leaderboard, its search form and next-page link work as plain HTML', async () => {
    const page = await open('/?community=include&limit=2', noJs, false);
    const expected = await apiNames({ community: 'include' });
    await expect(rowNames(page)).resolves.toEqual(expected.slice(0, 2));
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/cursor=/);
    await expect(rowNames(page)).resolves.toEqual(expected.slice(2, 4));
    // This view was rendered before two more scans ended: the page must show the ranking as it is now.
    await page.goto(`${site.baseUrl}/?community=include`);
    await expect(rowNames(page)).resolves.toEqual(expected);
    await page.getByLabel('Search').fill('exemplary');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/q=exemplary/);
    await expect(rowNames(page)).resolves.toEqual(await apiNames({ community: 'include', q: 'exemplary' }));
    await page.close();
  });

  test('a company page shows every check with its evidence', async () => {
    const page = await open('/companies/typical-saas.test?community=include', noJs, false);
    const { data: report } = await site.api.GET('/v1/leaderboard/companies/{domain}/report', { params: { path: { domain: 'typical-saas.test' }, query: { community: 'include' } } });
    await expect(page.locator('details.check').count()).resolves.toBe(report!.checks.length);
    const failed = report!.checks.find((c) => c.status === 'failed' && c.fix)!;
    await page.locator(`#check-${failed.id} > details > summary`).click();
    await expect(page.locator(`#check-${failed.id} .fix`).textContent()).resolves.toContain(failed.fix);
    await page.close();
  });
});

describe('every page', () => {
  const pages = () => [
    { name: 'leaderboard-empty', path: '/' },
    { name: 'leaderboard', path: '/?community=include' },
    { name: 'company', path: '/companies/exemplary-co.test?community=include' },
    { name: 'company-typical', path: '/companies/typical-saas.test?community=include' },
    { name: 'scan-form', path: '/scan' },
    { name: 'scan', path: `/scans/${scanIds['mcp-app'] ?? scanIds.exemplary}` },
    { name: 'journey-start', path: '/companies/exemplary-co.test/journey?community=include' },
    { name: 'methodology', path: '/methodology' },
    { name: 'not-found', path: '/no-such-page' },
  ];

  test('has a title, a description, a canonical link, parseable JSON-LD, and Markdown on request', async () => {
    for (const { path } of pages()) {
      const html = await (await fetch(`${site.baseUrl}${path}`, { headers: { accept: 'text/html' } })).text();
      expect(html).toMatch(/<title>[^<]{10,}<\/title>/);
      expect(html).toMatch(/<meta name="description" content="[^"]{20,}">/);
      expect(html).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\//);
      for (const m of html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)) expect(() => JSON.parse(m[1])).not.toThrow();
      const md = await fetch(`${site.baseUrl}${path}`, { headers: { accept: 'text/markdown' } });
      expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
      expect(md.headers.get('vary')).toMatch(/Accept/);
      expect(await md.text()).toMatch(/^# \S/);
    }
    const home = await (await fetch(`${site.baseUrl}/`)).text();
    expect(home).toContain('"@type":"WebSite"');
    const company = await (await fetch(`${site.baseUrl}/companies/exemplary-co.test?community=include`)).text();
    expect(company).toContain('"@type":"Review"');
  });

  test('errors: a missing page answers 404 in the site\'s design, API clients keep the JSON error body', async () => {
    const page = await open('/no-such-page');
    await expect(page.locator('h1').textContent()).resolves.toBe('Page not found');
    const json = await fetch(`${site.baseUrl}/no-such-page`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(404);
    expect(Object.keys(await json.json()).sort()).toEqual(['code', 'message', 'requestId']);
    const missingCompany = await fetch(`${site.baseUrl}/companies/nowhere.example`, { headers: { accept: 'text/html' } });
    expect(missingCompany.status).toBe(404);
    expect(await missingCompany.text()).toContain('Page not found');
    const badQuery = await fetch(`${site.baseUrl}/?sort=sideways`, { headers: { accept: 'text/html' } });
    expect(badQuery.status).toBe(400);
    expect(await badQuery.text()).toContain('That address is not valid');
    await page.close();
  });

  test('axe-core finds no serious or critical violation (light and dark), and screenshots at 1280 and 390 px', async () => {
    const found: string[] = [];
    // Light at both widths (the narrow layout differs), dark at the wide one (only colours change).
    for (const [colorScheme, width] of [['light', 1280], ['light', 390], ['dark', 1280]] as const) {
      const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme, bypassCSP: true });
      const page = await ctx.newPage();
      for (const { name, path } of pages()) {
        await page.goto(`${site.baseUrl}${path}`);
        await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
        const violations = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
        for (const v of violations) found.push(`${path} ${colorScheme} ${width}px: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        await screenshot(page, `${name}-${width}${colorScheme === 'dark' ? '-dark' : ''}`);
      }
      await ctx.close();
    }
    expect(found).toEqual([]);
  });
});
