// A stand-in for the leaderboard service on loopback (node:http), answering each operation the way a test tells
// it to: on contract, or broken in one precise way (silent, endless, not JSON, HTML, oversized, off-contract).
// The on-contract answers are the contract's own example report and the smallest Scan and ScanStart it allows.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { documentPaths } from '@arl/contract/node';

export const SCAN_ID = '4b1c2a34-5d6e-4f70-8a9b-0c1d2e3f4a5b';

/** The contract's example ScanReport (a finished scan of example.com, 78/100, B). */
export function exampleReport(): Record<string, unknown> {
  const doc = JSON.parse(fs.readFileSync(documentPaths('leaderboard').json, 'utf8'));
  return structuredClone(doc.components.examples.ScanReport.value);
}

export const scanStart = { started: true, scan: { id: SCAN_ID, state: 'waiting' }, domain: 'example.com' };
export const endedScan = {
  id: SCAN_ID, state: 'ended', ending: 'finished', cause: 'The scan finished and was scored.', domain: 'example.com', score: 78, grade: 'B',
  endedAt: '2026-11-22T10:15:04.310Z', events: [{ step: 'ended', at: '2026-11-22T10:15:04.310Z' }],
};

export type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export const json = (body: unknown, status = 200): Answer => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

/** Accepts the request and never answers. */
export const silent: Answer = () => {};

/** 200 JSON headers, the start of a body, then a space every 100 ms for as long as the client listens. */
export const endless: Answer = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"scanId":');
  const drip = setInterval(() => res.write(' '), 100);
  res.on('close', () => clearInterval(drip));
};

export interface FakeService {
  url: string;
  close(): Promise<void>;
}

/** Serves startScan, getScan and getScanReport with the given answers (on-contract ones by default). */
export async function startFakeService(answers: { startScan?: Answer; getScan?: Answer; getScanReport?: Answer } = {}): Promise<FakeService> {
  const server = http.createServer((req, res) => {
    res.on('error', () => {}); // the client hanging up mid-answer is what some tests are about
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/v1/leaderboard/scans') return (answers.startScan ?? json(scanStart, 202))(req, res);
    if (req.method === 'GET' && path === `/v1/leaderboard/scans/${SCAN_ID}`) return (answers.getScan ?? json(endedScan))(req, res);
    if (req.method === 'GET' && path === `/v1/leaderboard/scans/${SCAN_ID}/report`) return (answers.getScanReport ?? json(exampleReport()))(req, res);
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'not_found', message: 'Not found.', requestId: 'fake' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
