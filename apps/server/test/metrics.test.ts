// Operability in one process: the operations listener (/metrics, /healthz, /readyz) over a real Runtime, counting
// real requests to both hosts (cached answers included) by operationId, queue depth and mail backlog read from the
// database, scan endings, and the scan-end log line (domain, ending, cause).
import { Writable } from 'node:stream';
import { MAIL_JOB } from '../src/mail/mail-job';
import { startOpsServer, type OpsServer } from '../src/metrics/ops-server';
import { SCAN_JOB } from '../src/scans/scan-job';
import { pollUntil, startScanTestServer, type ScanTestServer } from './support/scan-harness';

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

let t: ScanTestServer;
let ops: OpsServer;
beforeAll(async () => {
  t = await startScanTestServer({ env: { LOG_LEVEL: 'info' }, logStream: sink });
  ops = await startOpsServer({ host: '127.0.0.1', port: 0, metrics: t.runtime.metrics, logger: t.runtime.logger, ready: () => t.runtime.readiness.check() });
});
afterAll(async () => {
  await ops.close();
  await t.close();
});

const scrape = async () => {
  const res = await fetch(`${ops.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
};
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test('requests are counted by host, operationId and status, cached answers and unknown routes included', async () => {
  for (let i = 0; i < 3; i += 1) expect((await fetch(`${t.leaderboardUrl}/v1/leaderboard?limit=5`)).status).toBe(200);
  expect((await fetch(`${t.leaderboardUrl}/v1/no-such-route`)).status).toBe(404);
  expect((await fetch(`${t.feedbackUrl}/v1/feedback/no-such-project`)).status).toBe(404);
  // A request is counted when its response has finished on the server, which may be after the client has it.
  const text = await pollUntil('the requests to be counted', async () => {
    const got = await scrape();
    return sample(got, 'arl_http_request_duration_seconds_count{host="leaderboard",operation="listLeaderboard",status="200"}') === 3
      && sample(got, 'arl_http_requests_total{host="feedback",operation="getFeedbackCard",status="404"}') === 1 ? got : undefined;
  });
  expect(sample(text, 'arl_http_requests_total{host="leaderboard",operation="listLeaderboard",status="200"}')).toBe(3);
  expect(sample(text, 'arl_http_request_duration_seconds_count{host="leaderboard",operation="listLeaderboard",status="200"}')).toBe(3);
  expect(sample(text, 'arl_http_requests_total{host="leaderboard",operation="unmatched",status="404"}')).toBe(1);
  expect(sample(text, 'arl_http_requests_total{host="feedback",operation="getFeedbackCard",status="404"}')).toBe(1);
  expect(text).toContain('arl_process_cpu_seconds_total');
});

test('scan endings and durations are counted, and the end of a scan is logged with its domain, ending and cause', async () => {
  const res = await fetch(`${t.leaderboardUrl}/v1/leaderboard/scans`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: t.urlOf('sign-in-wall') }),
  });
  expect(res.status).toBe(202);
  const { scan } = (await res.json()) as { scan: { id: string } };
  const ended = await t.waitForEnd(scan.id, 120_000);
  expect(ended.ending).toBe('sign_in_required');
  // Operation 6 answers `ended` once the ending commits; the log line and the metrics are written after the commit's
  // followers (scan-job.ts): waited for, not read once.
  const text = await pollUntil('the scan end to be counted and logged', async () => {
    const got = await scrape();
    return sample(got, 'arl_scan_duration_seconds_count{ending="sign_in_required"}') !== undefined
      && lines.some((l) => l.msg === 'scan ended' && l.scanId === scan.id) ? got : undefined;
  });
  expect(sample(text, 'arl_scans_ended_total{ending="sign_in_required"}')).toBe(1);
  expect(sample(text, 'arl_scan_duration_seconds_count{ending="sign_in_required"}')).toBe(1);
  expect(sample(text, 'arl_http_requests_total{host="leaderboard",operation="startScan",status="202"}')).toBe(1);
  const line = lines.find((l) => l.msg === 'scan ended' && l.scanId === scan.id);
  expect(line).toMatchObject({ domain: ended.domain, ending: 'sign_in_required', cause: ended.cause });
  expect(String(line!.cause).length).toBeGreaterThan(0);
});

test('queue depth by kind and state, the mail backlog and the pool are read from the database at each scrape', async () => {
  // A delayed job of each kind (nothing claims it yet) and one unsent mail.
  const later = new Date(Date.now() + 3_600_000);
  await t.runtime.jobs.enqueue(SCAN_JOB, { scanId: '00000000-0000-4000-8000-000000000000' }, { runAt: later });
  await t.runtime.jobs.enqueue(MAIL_JOB, { mailId: '00000000-0000-4000-8000-000000000000' }, { runAt: later });
  await t.db.prisma.mailOutbox.create({ data: { to: 'ops@example.com', subject: 's', text: 't', nextAttemptAt: later } });
  const text = await scrape();
  expect(sample(text, 'arl_jobs{kind="scan",state="queued"}')).toBe(1);
  expect(sample(text, 'arl_jobs{kind="mail",state="queued"}')).toBe(1);
  expect(sample(text, 'arl_mail_outbox{status="pending"}')).toBe(1);
  expect(sample(text, 'arl_database_up')).toBe(1);
  if (t.db.kind === 'postgres') expect(sample(text, 'arl_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
  else expect(text).not.toContain('arl_db_pool_connections{');
});

test("the LISTEN feeds' state, reconnections and the leaderboard's last check are scraped", async () => {
  await fetch(`${t.leaderboardUrl}/v1/leaderboard`); // loads the index: its load is its first check
  const text = await scrape();
  expect(sample(text, 'arl_feed_state{feed="changes",state="live"}')).toBe(1);
  expect(sample(text, 'arl_feed_state{feed="changes",state="down"}')).toBe(0);
  expect(sample(text, 'arl_feed_state{feed="progress",state="live"}')).toBe(1);
  expect(sample(text, 'arl_feed_reconnects{feed="changes"}')).toBe(0);
  expect(sample(text, 'arl_leaderboard_check_age_seconds')).toBeGreaterThanOrEqual(0);
  expect(sample(text, 'arl_leaderboard_changes_missed')).toBe(0);
  expect(sample(text, 'arl_leaderboard_checks_failed')).toBe(0);
});

test('health and readiness probes; anything else answers the contract error shape', async () => {
  expect(await (await fetch(`${ops.url}/healthz`)).json()).toEqual({ status: 'ok' });
  expect((await fetch(`${ops.url}/readyz`)).status).toBe(200);
  const missing = await fetch(`${ops.url}/v1/leaderboard`);
  expect(missing.status).toBe(404);
  const body = (await missing.json()) as Record<string, string>;
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'requestId']);
  expect(body.requestId).toBe(missing.headers.get('x-request-id'));
  const post = await fetch(`${ops.url}/metrics`, { method: 'POST' });
  expect(post.status).toBe(405);
  expect(post.headers.get('allow')).toBe('GET, HEAD');
});
