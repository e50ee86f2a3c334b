// Joining: the same target (however it is spelled) while a scan is not ended joins it, atomically, even with 50
// concurrent submissions; an `email` given on join is added to the recipients. The worker starts afterwards, so
// every submission below meets a scan that is still waiting.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startBackground } from '../src/jobs/background';
import { pollUntil, startScanTestServer, type ScanTestServer } from './support/scan-harness';

let t: ScanTestServer;
beforeAll(async () => {
  t = await startScanTestServer({ worker: false });
});
afterAll(() => t.close());

async function post(url: string, email?: string) {
  const res = await fetch(`${t.leaderboardUrl}/v1/leaderboard/scans`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, ...(email ? { email } : {}) }),
  });
  return { status: res.status, body: (await res.json()) as { started: boolean; scan: { id: string; state: string }; domain: string } };
}

test('a running scan of the same target is joined: 200, started false, the same scan, whatever the spelling', async () => {
  const url = t.urlOf('typical-saas'); // http://typical-saas.test:PORT/
  const first = await post(url, 'first@example.com');
  expect(first.status).toBe(202);
  const respelled = url.replace('typical-saas.test', 'TYPICAL-SAAS.test') + '#pricing';
  const joined = await post(respelled, 'second@example.com');
  expect(joined).toEqual({ status: 200, body: { started: false, scan: { id: first.body.scan.id, state: 'waiting' }, domain: 'typical-saas.test' } });
  const again = await post(url, 'second@example.com'); // the same address twice is one recipient
  expect(again.body.scan.id).toBe(first.body.scan.id);
  const other = await post(`${url}pricing`);
  expect(other.status).toBe(202); // another path is another target
  const recipients = await t.db.prisma.scanRecipient.findMany({ where: { scanId: first.body.scan.id }, orderBy: { email: 'asc' } });
  expect(recipients.map((r) => r.email)).toEqual(['first@example.com', 'second@example.com']);
});

test('50 concurrent submissions of one target produce exactly one scan', async () => {
  const url = t.urlOf('hostile');
  const answers = await Promise.all(Array.from({ length: 50 }, () => post(url)));
  const ids = new Set(answers.map((a) => a.body.scan.id));
  expect(ids.size).toBe(1);
  expect(answers.filter((a) => a.status === 202 && a.body.started)).toHaveLength(1);
  expect(answers.filter((a) => a.status === 200 && !a.body.started)).toHaveLength(49);
  const target = new URL(url).href;
  expect(await t.db.prisma.scan.count({ where: { target } })).toBe(1);
  expect(await t.db.prisma.job.count({ where: { kind: 'scan', payload: { equals: { scanId: [...ids][0] } } } })).toBe(1);
});

test('once the worker runs, the joined scan ends once and every recipient gets one mail', async () => {
  const background = startBackground(t.runtime, { pollMs: 50 });
  try {
    const scan = await t.db.prisma.scan.findFirstOrThrow({ where: { domain: 'typical-saas.test', url: t.urlOf('typical-saas') } });
    const ended = await t.waitForEnd(scan.id, 120_000);
    expect(ended.events.filter((e) => e.step === 'running')).toHaveLength(1);
    const outbox = path.join(t.dataDir, 'outbox');
    const mails = await pollUntil('two mails', async () => {
      const files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
      const texts = files.map((f) => fs.readFileSync(path.join(outbox, f), 'utf8')).filter((m) => m.includes('typical-saas.test'));
      return texts.length >= 2 ? texts : undefined;
    });
    expect(mails.map((m) => /^To: (.*)$/m.exec(m)![1]).sort()).toEqual(['first@example.com', 'second@example.com']);
    // The file lands before the sender marks its row sent: wait for the marks, then check there are exactly two.
    const rows = await pollUntil('two rows marked sent', async () => {
      const found = await t.db.prisma.mailOutbox.findMany({ where: { scanId: scan.id } });
      return found.every((r) => r.status === 'sent') ? found : undefined;
    });
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent']);
    // Every scan submitted above ends.
    for (const s of await t.db.prisma.scan.findMany({ select: { id: true } })) await t.waitForEnd(s.id, 120_000);
  } finally {
    await background.stop(5000);
  }
});
