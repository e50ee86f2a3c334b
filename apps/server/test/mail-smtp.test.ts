// End-of-scan mail through a real SMTP server on loopback (smtp-server): delivered once with the domain, score,
// grade and link; a server that refuses the first attempt gets the mail on a retry.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { pollUntil, startScanTestServer, type ScanTestServer } from './support/scan-harness';

interface Received {
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let port: number;
const received: Received[] = [];
let refuseNext = 0;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refuseNext > 0) {
          refuseNext -= 1;
          const err = Object.assign(new Error('try again later'), { responseCode: 451 });
          return callback(err);
        }
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

const decode = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

describe('with SMTP_URL', () => {
  let t: ScanTestServer;
  beforeAll(async () => {
    t = await startScanTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Leaderboard <lb@example.test>' } });
  });
  afterAll(() => t.close());

  test('a finished scan mails its domain, score, grade and company link to the address given', async () => {
    const { data } = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf('content-site'), email: 'reader@example.com' } });
    const scan = await t.waitForEnd(data!.scan.id);
    const mail = await pollUntil('the mail', async () => received.find((m) => m.to.includes('reader@example.com')));
    const text = decode(mail.raw);
    expect(text).toContain('From: Leaderboard <lb@example.test>');
    expect(text).toContain(`Subject: Agent-readiness of fern-journal.test: ${scan.score}/100 (${scan.grade})`);
    expect(text).toContain(`Grade: ${scan.grade}`);
    expect(text).toContain(`${t.config.publicUrl}/v1/leaderboard/companies/fern-journal.test?community=include`);
    // The SMTP server has the mail before the worker records the delivery: wait for the outbox row to say so.
    const row = await pollUntil('the outbox row marked sent', async () => {
      const [r] = await t.db.prisma.mailOutbox.findMany({ where: { scanId: scan.id } });
      return r?.status === 'sent' ? r : undefined;
    });
    expect(row).toMatchObject({ status: 'sent', attempts: 1, to: 'reader@example.com' });
  });

  test('a scan that ended without a score mails how it ended; a refused delivery is retried', async () => {
    refuseNext = 1;
    const { data } = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf('sign-in-wall'), email: 'owner@members-only.test' } });
    const scan = await t.waitForEnd(data!.scan.id);
    const mail = await pollUntil('the retried mail', async () => received.find((m) => m.to.includes('owner@members-only.test')), 120_000);
    expect(decode(mail.raw)).toContain('Ending: sign_in_required');
    const row = await pollUntil('sent status', async () => {
      const [r] = await t.db.prisma.mailOutbox.findMany({ where: { scanId: scan.id } });
      return r?.status === 'sent' ? r : undefined;
    });
    expect(row.attempts).toBe(2);
    expect(received.filter((m) => m.to.includes('owner@members-only.test'))).toHaveLength(1);
  });
});
