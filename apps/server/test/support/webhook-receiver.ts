// A real webhook receiver on loopback: records every request (headers and exact body) and answers what the test
// scripts (a status per request, or holding the request open). Signatures are verified with node:crypto, following
// the Standard Webhooks specification, independently of the library the service signs with.
import { createHmac, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: Date;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** What to answer to request number n (0-based): a status, or 'hold' to keep it open until close(). */
  answer: (n: number, request: Received) => number | 'hold';
  close(): Promise<void>;
}

export async function startReceiver(answer: Receiver['answer'] = () => 200): Promise<Receiver> {
  const held: http.ServerResponse[] = [];
  const receiver: Receiver = { url: '', received: [], answer, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: new Date() };
      const n = receiver.received.length;
      receiver.received.push(request);
      const status = receiver.answer(n, request);
      if (status === 'hold') held.push(res);
      else res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 400 ? 'receiver secret: do-not-echo' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

/** Standard Webhooks verification, written from the specification with node:crypto only. */
export function verifyStandardWebhook(secret: string, request: Received, toleranceSeconds = 300): boolean {
  const id = request.headers['webhook-id'];
  const timestamp = request.headers['webhook-timestamp'];
  const signatures = request.headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64'));
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
