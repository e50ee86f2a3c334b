// Names are other people's words (issue 40): a 200-character unbroken name (the longest an operator's list may give;
// a scanned site's own is cut at 120) must wrap on a 390 px phone, on the leaderboard, the company page and the
// comparison, instead of widening the page (it made / 2,598 px and a company page 3,978 px wide). Screenshots:
// test-output/screenshots/long-name-390-*.png.
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';
import { startSite, type Site } from './support/site';

const NAME = 'W'.repeat(200);
let site: Site;
let browser: Browser;
let domain = '';
let other = '';

beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
  const scan = await site.scan('exemplary');
  expect(scan.ending).toBe('finished');
  domain = scan.domain;
  other = (await site.scan('typical-saas')).domain;
  const { rows } = await site.db.executeSql(`UPDATE companies SET name = $2::text, updated_at = now() WHERE domain = $1::varchar RETURNING id::text AS id`, [domain, NAME]);
  await site.runtime.changes.publish({ kind: 'ids', ids: (rows as Array<{ id: string }>).map((r) => r.id) });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

test.each([
  ['leaderboard', () => '/?community=include'],
  ['company', () => `/companies/${domain}?community=include`],
  ['compare', () => `/compare?domains=${domain},${other}&community=include`],
])('the %s page at 390 px: the name is shown whole and nothing scrolls sideways', async (name, pathOf) => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  try {
    // The rename reaches the page through the change feed: load until it shows.
    for (let tries = 0; ; tries++) {
      await page.goto(`${site.baseUrl}${pathOf()}`);
      if ((await page.content()).includes(NAME)) break;
      if (tries > 600) throw new Error(`the ${name} page never showed the new name`);
      await page.waitForTimeout(200);
    }
    const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    await screenshot(page, `long-name-390-${name}`);
    expect(scroll).toBeLessThanOrEqual(client);
  } finally {
    await page.close();
  }
});
