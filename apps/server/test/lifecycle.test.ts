// The start-up guards in one process (the child-process behaviour is in worker-process and readme-commands):
// the DATA_DIR lock (exclusive, names its owner, released with the descriptor), the port check, the
// resolved storage description, and the log format choice.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../src/config';
import { claimDataDir, storageOf } from '../src/lifecycle/claim';
import { DataDirBusyError, lockDataDir } from '../src/lifecycle/data-dir-lock';
import { assertPortsFree, PortBusyError } from '../src/lifecycle/port-check';

const dirs: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-lifecycle-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

test('the DATA_DIR lock is exclusive, names the owner, and is free again once released', () => {
  const dir = path.join(tmp(), 'nested', 'data');
  const lock = lockDataDir(dir);
  expect(fs.readFileSync(path.join(dir, '.lock'), 'utf8').trim()).toBe(String(process.pid));
  let refused: unknown;
  try {
    lockDataDir(dir);
  } catch (err) {
    refused = err;
  }
  expect(refused).toBeInstanceOf(DataDirBusyError);
  expect((refused as DataDirBusyError).message).toBe(
    `${dir} is already in use by process ${process.pid}: only one process may open the embedded database, so stop that process first or choose another DATA_DIR.`,
  );
  lock.release();
  lock.release(); // idempotent
  const again = lockDataDir(dir);
  again.release();
});

test('with PostgreSQL, DATA_DIR only holds the outbox and is not locked; storage is described without secrets', () => {
  const dir = tmp();
  const pg = loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgresql://app:hunter2@db.internal:5433/leaderboard?schema=prod' });
  expect(claimDataDir(pg)).toBeNull();
  expect(storageOf(pg)).toEqual({ database: 'PostgreSQL db.internal:5433/leaderboard schema prod', mail: `.eml files in ${dir}/outbox (no SMTP_URL)` });
  expect(JSON.stringify(storageOf(pg))).not.toContain('hunter2');
  const embedded = loadConfig({ DATA_DIR: 'relative/data', SMTP_URL: 'smtp://user:pw@mail.internal:25' }, dir);
  expect(storageOf(embedded)).toEqual({ database: `PGlite in ${path.join(dir, 'relative/data/pglite')}`, mail: 'SMTP mail.internal' });
});

test('a port in use is refused by name before anything else happens; port 0 is never checked', async () => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as net.AddressInfo).port;
  try {
    await expect(assertPortsFree('127.0.0.1', [{ variable: 'PORT', port: 0 }, { variable: 'FEEDBACK_PORT', port }])).rejects.toThrow(
      new PortBusyError('FEEDBACK_PORT', '127.0.0.1', port, 'already in use'),
    );
  } finally {
    holder.close();
  }
  await expect(assertPortsFree('127.0.0.1', [{ variable: 'PORT', port }])).resolves.toBeUndefined();
});

test('logs: pino-pretty lines when asked (development on a terminal), JSON otherwise', () => {
  const log = (format: string, nodeEnv: string) =>
    execFileSync(process.execPath, ['-e', `require('./dist/logger').createLogger('info', { format: ${format}, nodeEnv: '${nodeEnv}' }).info({ domain: 'example.com' }, 'scan ended')`], {
      cwd: path.resolve(__dirname, '..'),
      encoding: 'utf8',
    });
  const pretty = log("'pretty'", 'development');
  expect(pretty).toMatch(/INFO.*scan ended/);
  expect(pretty).toContain('domain: "example.com"');
  expect(() => JSON.parse(pretty)).toThrow();
  // Not a terminal (a pipe here) or production: JSON.
  expect(JSON.parse(log('null', 'development'))).toMatchObject({ msg: 'scan ended', domain: 'example.com' });
  expect(JSON.parse(log('null', 'production'))).toMatchObject({ msg: 'scan ended' });
});

test('signals: the same Ctrl-C delivered twice (terminal and npm) drains once; a later second signal exits at once', async () => {
  // A child with exitOnSignals and a drain of `drainMs`, as the entry points install it.
  const script = `
    const { exitOnSignals } = require('./dist/cli/process-lifecycle');
    const { createLogger } = require('./dist/logger');
    const drainMs = Number(process.argv[1]);
    exitOnSignals(createLogger('info', { format: 'json' }), drainMs + 10000, () => new Promise((r) => setTimeout(r, drainMs)));
    process.stdout.write('ready\\n');
    setInterval(() => undefined, 1000);`;
  const run = async (gapMs: number, drainMs: number) => {
    const child = spawn(process.execPath, ['-e', script, String(drainMs)], { cwd: path.resolve(__dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    // 'close', not 'exit': the child's last log lines may still be in the pipe when it exits.
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    while (!out.includes('ready')) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, gapMs));
    child.kill('SIGINT');
    return { code: await exited, out };
  };
  // 50 ms apart: well within the 1 s in which a signal counts as the same one delivered twice.
  const twiceAtOnce = await run(50, 1500);
  expect(twiceAtOnce.code).toBe(0);
  expect(twiceAtOnce.out).toContain('"msg":"stopped"');
  // 3 s apart: past that second, and long before the drain (60 s) would end, however late a loaded machine's timers.
  const secondLater = await run(3000, 60_000);
  expect(secondLater.code).toBe(1);
  expect(secondLater.out).toContain('"msg":"second signal: exiting now"');
});
