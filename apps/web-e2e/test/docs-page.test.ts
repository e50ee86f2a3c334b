// The reference pages (/docs on both hosts, Redoc built by packages/contract) on a 390 px phone: the title breaks
// between words, never inside one (issue 40: "Leaderboa" / "rd" beside Redoc's Copy button), and nothing scrolls
// sideways. The page is the file both hosts serve. Screenshots: test-output/screenshots/docs-390-*.png.
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

test.each(['leaderboard', 'feedback'])('the %s reference at 390 px: every word of the title on one line', async (host) => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true });
  try {
    await page.goto(`file://${path.resolve(__dirname, `../../../packages/contract/dist/openapi/${host}.html`)}`);
    await page.locator('h1').first().waitFor();
    // Each word's text as laid out (a hyphen is a break a reader expects: "Agent-" and "Readiness" are two): one line
    // box for a whole word, two for a word split across lines.
    const words = await page.evaluate(() => {
      const h1 = document.querySelector('h1')!;
      const text = h1.firstChild!;
      const out: Array<{ word: string; lines: number }> = [];
      for (const m of (text.textContent ?? '').matchAll(/[^\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(text, m.index!);
        range.setEnd(text, m.index! + m[0].length);
        out.push({ word: m[0], lines: new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size });
      }
      return out;
    });
    await screenshot(page, `docs-390-${host}`);
    expect(words.length).toBeGreaterThan(1);
    expect(words.filter((w) => w.lines !== 1)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  } finally {
    await page.close();
  }
});
