// Webhook deliveries survive kill -9 (the built dist/ entry point in a child process on a PGlite DATA_DIR): a real
// scan ends, its delivery is caught mid-attempt (the receiver holds the request), the server is killed with SIGKILL,
// and the restarted server delivers the same event again with the same webhook-id (at least once). The receiver
// verifies every signature with node:crypto.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox, type Sandbox } from '@arl/sandbox';
import { pollUntil } from './support/scan-harness';
import { startReceiver, verifyStandardWebhook, type Receiver } from './support/webhook-receiver';

const DIST = path.resolve(__dirname, '../dist');

let sandbox: Sandbox;
let receiver: Receiver;
let child: ChildProcess | null = null;
let output = '';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-hook-proc-'));

beforeAll(async () => {
  sandbox = await startSandbox({ latencyMs: 20 });
  // The first delivery attempt is held open (the server is killed during it); later ones are answered 200.
  receiver = await startReceiver((n) => (n === 0 ? 'hold' : 200));
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('close', resolve));
  }
  await receiver.close();
  await sandbox.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startServer(): Promise<string> {
  output = '';
  child = spawn(process.execPath, [path.join(DIST, 'main.js'), '--resolve', '*.test=127.0.0.1'], {
    env: {
      PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', HOST: '127.0.0.1', SCAN_ALLOW_PRIVATE_NETWORKS: 'true', RESCAN_INTERVAL: 'off',
      SCAN_RATE_LIMIT: '0', DATA_DIR: dataDir, PORT: '0', FEEDBACK_PORT: '0', WEBHOOK_TIMEOUT: '60s',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const c = child;
  c.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  c.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const line = await pollUntil('the server to listen', async () => {
    if (c.exitCode !== null) throw new Error(`server exited: ${output}`);
    return output.split('\n').find((l) => l.includes('"msg":"listening"'));
  }, 120_000);
  return (JSON.parse(line) as { leaderboard: string }).leaderboard;
}

test('kill -9 mid-delivery: the restarted server sends the same webhook-id again, signed, and lists it delivered', async () => {
  let base = await startServer();
  const domain = new URL(sandbox.urlOf('exemplary')).hostname;
  const created = await fetch(`${base}/v1/leaderboard/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url, domain, events: ['scan.ended'] }),
  });
  expect(created.status).toBe(201);
  const sub = (await created.json()) as { subscription: { id: string }; token: string; secret: string };
  const scan = await fetch(`${base}/v1/leaderboard/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: sandbox.urlOf('exemplary') }) });
  expect(((await scan.json()) as { domain: string }).domain).toBe(domain);

  await pollUntil('the first attempt to arrive', async () => receiver.received.length === 1, 120_000);
  child!.kill('SIGKILL');
  // 'close', not 'exit': the killed process's last output is drained before startServer() starts a new `output`.
  await new Promise((resolve) => child!.once('close', resolve));

  base = await startServer();
  await pollUntil('the attempt after the restart', async () => receiver.received.length >= 2, 120_000);
  const [first, again] = receiver.received;
  expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
  expect(again.body).toBe(first.body);
  for (const got of receiver.received) expect(verifyStandardWebhook(sub.secret, got)).toBe(true);
  expect(JSON.parse(again.body)).toMatchObject({ type: 'scan.ended', data: { domain, ending: 'finished' } });

  const listed = await pollUntil('the delivery to be listed delivered', async () => {
    const res = await fetch(`${base}/v1/leaderboard/webhooks/${sub.subscription.id}/deliveries`, { headers: { authorization: `Bearer ${sub.token}` } });
    const body = (await res.json()) as { items: Array<{ id: string; status: string; responseStatus: number | null }> };
    return body.items[0]?.status === 'delivered' ? body.items : undefined;
  }, 120_000);
  expect(listed).toHaveLength(1);
  expect(listed[0]).toMatchObject({ id: first.headers['webhook-id'], responseStatus: 200 });
  // The child's log arrives through a pipe, later than what it sent over HTTP: waited for, not read once.
  await pollUntil('the recovery log line', async () => output.includes('recovered jobs left active by a previous process'), 120_000);
  expect(output).toContain('recovered jobs left active by a previous process');
});
