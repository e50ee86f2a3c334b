// `arl` against a service that misbehaves, on loopback (node:http): it never hangs and never prints a stack.
// Each case ends with exit 2 and one line on stderr naming what was wrong: a service that never answers or never
// finishes its answer (cut at the --timeout deadline), an answer that is not JSON, HTML, too large, or JSON the
// contract does not describe. The built binary runs in a child process, as a pipeline runs it.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { endless, exampleReport, json, silent, startFakeService, type Answer, type FakeService } from './support/fake-service';
import { ARL_BIN, runArl, type ArlRun } from './support/run-arl';

// The deadline of the cases about time; the others get a roomy one, so that a loaded machine cannot turn their
// answer into a timeout.
const TIMEOUT_S = 2;
// The endless answer is the third request of the run (startScan and getScan come first, about 1 s from arl's start
// on a quiet machine, much more on a loaded one): its deadline leaves them room, so that it is the report that is cut.
const ENDLESS_TIMEOUT_S = 10;
const ROOMY_TIMEOUT_S = 120;
// A sanity bound only (a loaded machine is slow): a run that is not cut at its deadline would be killed here, long
// before the default --timeout (300 s).
const killAfterMs = (timeoutS: number) => timeoutS * 1000 + 60_000;
const KILL_AFTER_MS = killAfterMs(TIMEOUT_S);

const services: FakeService[] = [];
afterAll(() => Promise.all(services.map((s) => s.close())));

async function checkAgainst(answers: Parameters<typeof startFakeService>[0], timeoutS = ROOMY_TIMEOUT_S): Promise<ArlRun & { api: string }> {
  const service = await startFakeService(answers);
  services.push(service);
  const run = await runArl(['check', 'https://example.com', '--api', service.url, '--timeout', String(timeoutS)], { killAfterMs: killAfterMs(timeoutS) });
  return { ...run, api: service.url };
}

/**
 * Exit 2, nothing on stdout, and the reason as the last line of stderr, one line: every line on stderr is an
 * `arl: ` line (progress before the reason), so no stack and no library's multi-line text.
 */
function expectOneLineRefusal(run: ArlRun, reason: RegExp): void {
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
  expect(run.stderr).toMatch(/^(arl: [^\n]+\n)+$/);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stderr.trimEnd().split('\n').at(-1)).toMatch(reason);
}

test('on-contract answers: the gate decides (the stand-in service is what the contract describes)', async () => {
  const run = await checkAgainst({});
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^PASSED {2}example\.com {2}78\/100 \(B\)/);
});

test('a service that accepts the connection and never answers: exit 2 at the --timeout deadline', async () => {
  const run = await checkAgainst({ startScan: silent }, TIMEOUT_S);
  expectOneLineRefusal(run, new RegExp(`The service at ${run.api.replace(/\./g, '\\.')} did not answer startScan within the ${TIMEOUT_S} s timeout`));
  expect(run.elapsedMs).toBeLessThan(KILL_AFTER_MS);
});

test('an answer that streams without end: cut at the deadline', async () => {
  const run = await checkAgainst({ getScanReport: endless }, ENDLESS_TIMEOUT_S);
  expectOneLineRefusal(run, new RegExp(`did not finish its answer to getScanReport within the ${ENDLESS_TIMEOUT_S} s timeout`));
});

test('malformed JSON: "not valid JSON", not "unreachable"', async () => {
  const run = await checkAgainst({ getScanReport: (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"scanId": "4b1c') });
  expectOneLineRefusal(run, /The service's answer to getScanReport is not valid JSON\./);
  expect(run.stderr).not.toContain('unreachable');
});

test('an HTML page with 200 (a wrong --api, a proxy): says it answered HTML, not JSON', async () => {
  const html: Answer = (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Welcome</title><p>Hi</p>');
  const run = await checkAgainst({ startScan: html });
  expectOneLineRefusal(run, /answered startScan with HTML \(text\/html\) instead of JSON/);
});

describe('an oversized answer (50 MB) is refused by its size, not parsed', () => {
  // Valid JSON the contract would accept but for its size: parsed, it would pass the gate.
  const body = Buffer.from(JSON.stringify({ ...exampleReport(), summary: 'x'.repeat(50 * 1024 * 1024) }));

  test('sent without a length (chunked): counted while it is read', async () => {
    const run = await checkAgainst({
      getScanReport: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(body);
        res.end();
      },
    });
    expectOneLineRefusal(run, /The service's answer to getScanReport is larger than 5 MiB/);
  });

  test('with its Content-Length: refused before reading', async () => {
    const run = await checkAgainst({
      getScanReport: (_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body),
    });
    expectOneLineRefusal(run, /The service's answer to getScanReport is larger than 5 MiB/);
  });
});

test('a report without `checks`: the contract names what is missing (no TypeError)', async () => {
  const { checks: _dropped, ...report } = exampleReport();
  const run = await checkAgainst({ getScanReport: json(report) });
  expectOneLineRefusal(run, /The service's answer to getScanReport is not what the contract describes: \/checks is required\./);
});

test('a scan the contract does not describe (a score out of range): named by its path', async () => {
  const run = await checkAgainst({ getScanReport: json({ ...exampleReport(), score: 178 }) });
  expectOneLineRefusal(run, /not what the contract describes: \/score must be at most 100\./);
});

test('before a build: the bin says to run `npm run build`, in one line, exit 2', async () => {
  // The committed shim, where dist/ has not been written yet (a fresh clone after `npm ci`).
  const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-unbuilt-'));
  fs.mkdirSync(path.join(clone, 'bin'));
  fs.copyFileSync(ARL_BIN, path.join(clone, 'bin', 'arl.js'));
  try {
    const run = await runArl(['check', 'https://example.com'], { bin: path.join(clone, 'bin', 'arl.js') });
    expectOneLineRefusal(run, /npm run build/);
  } finally {
    fs.rmSync(clone, { recursive: true, force: true });
  }
});

test('a positional that is not a URL (`arl check check`) is refused with a hint', async () => {
  const run = await runArl(['check', 'check', '--api', 'http://127.0.0.1:9']);
  expectOneLineRefusal(run, /"check" is not a URL to scan.*arl check <url>/);
});

test('--local on a loopback address without --allow-private names --allow-private', async () => {
  const site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Preview</title>'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  try {
    const run = await runArl(['check', `http://127.0.0.1:${(site.address() as AddressInfo).port}/`, '--local'], { killAfterMs: 120_000 });
    expectOneLineRefusal(run, /--allow-private/);
  } finally {
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  }
});
