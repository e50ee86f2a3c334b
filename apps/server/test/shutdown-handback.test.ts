// A deploy loses no work, whatever the scanned site does (issue 21, row 2): a site that sends its headers and part
// of its page and then stalls holds a scan's fetch open; SIGTERM's hand-back (the worker's stop) must still end
// within its window, put the scan back to `waiting` and its job back in the queue without counting an attempt, and
// the next worker must run it to a real ending as its first attempt. Real worker, real HTTP server on loopback.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBackground } from '../src/jobs/background';
import { startTestServer, type TestServer } from './support/harness';
import { pollUntil, readScan, waitForScanEnd } from './support/scan-harness';

let t: TestServer;
let site: http.Server;
let siteUrl: string;
let stall = true;
const stalled = new Set<http.ServerResponse>();
const homeRequests: number[] = [];

beforeAll(async () => {
  site = http.createServer((req, res) => {
    if (req.url === '/') homeRequests.push(Date.now());
    if (stall) {
      // Headers and the first bytes of a long page, then nothing: the body never ends.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': '200000' });
      res.write('<!doctype html><html lang="en"><head><title>Stalling site</title>');
      stalled.add(res);
      return;
    }
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><head><title>Back again</title><meta name="description" content="A site that answers."></head><body><h1>Back</h1></body></html>');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not here');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  t = await startTestServer({ env: { SCAN_RATE_LIMIT: '0' } });
});

afterAll(async () => {
  for (const res of stalled) res.destroy();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
  await t.close();
});

const jobOf = async (scanId: string) =>
  (await t.db.executeSql(`SELECT state, attempts, locked_by FROM jobs WHERE kind = 'scan' AND payload->>'scanId' = $1`, [scanId])).rows[0] as
    { state: string; attempts: number; locked_by: string | null };

test('a scan reading a site that stalls mid-body is handed back within the shutdown window and runs again as its first attempt', async () => {
  const first = startBackground(t.runtime, { pollMs: 50 });
  const res = await fetch(`${t.leaderboardUrl}/v1/leaderboard/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: siteUrl }) });
  expect(res.status).toBe(202);
  const { scan } = (await res.json()) as { scan: { id: string } };
  // The scan is reading the stalled home page.
  await pollUntil('the scan to fetch the stalled page', async () => homeRequests.length > 0 && (await readScan(t.leaderboardUrl, scan.id)).state === 'running');

  const windowMs = 1500;
  const stopping = Date.now();
  await first.stop(windowMs);
  // Within the window, not after the stalled fetch's 8 s request timeout: the slack (2.5 s) is for a loaded machine,
  // where the hand-back's transaction and late timers take longer than on a quiet one.
  expect(Date.now() - stopping).toBeLessThan(windowMs + 2_500);
  expect(first.worker.status).toBe('stopped');
  // Handed back: queued at once, unlocked, the attempt not counted; the scan waits again.
  expect(await jobOf(scan.id)).toEqual({ state: 'queued', attempts: 0, locked_by: null });
  expect((await readScan(t.leaderboardUrl, scan.id)).state).toBe('waiting');

  // The restart (here: a new worker on the same database) runs it once more, as attempt 1, to a real ending.
  stall = false;
  const second = startBackground(t.runtime, { pollMs: 50 });
  try {
    const ended = await waitForScanEnd(t.leaderboardUrl, scan.id, 120_000);
    expect(ended.ending).toBe('finished');
    expect(await jobOf(scan.id)).toMatchObject({ state: 'completed', attempts: 1 });
  } finally {
    await second.stop(5000);
  }
});
