// CORS on both hosts through really listening servers: preflights answered (never 405), X-Request-Id exposed, no
// credentials, the default open to any origin, a configured list enforced, cached answers included.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFeedbackApp, createLeaderboardListener } from '../src/apps';
import { loadConfig } from '../src/config';
import type { Runtime } from '../src/runtime';
import { startTestServer, type TestServer } from './support/harness';

let open: TestServer;
// The same runtime served again by both hosts' real listeners, configured with a list of origins.
const listed = { leaderboardUrl: '', feedbackUrl: '', servers: [] as http.Server[] };

async function serve(listener: http.RequestListener): Promise<string> {
  const server = http.createServer(listener);
  listed.servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  open = await startTestServer();
  const config = { ...open.runtime.config, corsOrigins: loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins };
  const runtime: Runtime = { ...open.runtime, config };
  listed.leaderboardUrl = await serve(createLeaderboardListener(runtime));
  listed.feedbackUrl = await serve(createFeedbackApp(runtime));
});
afterAll(async () => {
  await Promise.all(listed.servers.map((s) => new Promise<void>((resolve) => { s.close(() => resolve()); s.closeAllConnections(); })));
  await open.close();
});

const preflight = (url: string, origin: string, method = 'POST') =>
  fetch(url, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type,x-request-id' } });

test('preflights are answered 204 on every path of both hosts, never 405, without credentials', async () => {
  for (const url of [
    `${open.leaderboardUrl}/v1/leaderboard/scans`,
    `${open.leaderboardUrl}/v1/leaderboard`,
    `${open.leaderboardUrl}/no/such/route`,
    `${open.feedbackUrl}/v1/feedback/leaderboard/reports`,
  ]) {
    const res = await preflight(url, 'https://anywhere.example');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toEqual(expect.stringContaining('content-type'));
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toEqual(expect.stringContaining('x-request-id'));
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-max-age')).toBe('600');
  }
});

test('answers (errors and cached hits too) carry the CORS headers and expose X-Request-Id', async () => {
  const origin = { Origin: 'https://anywhere.example' };
  const first = await fetch(`${open.leaderboardUrl}/v1/leaderboard/categories`, { headers: origin });
  const cached = await fetch(`${open.leaderboardUrl}/v1/leaderboard/categories`, { headers: origin });
  const missing = await fetch(`${open.leaderboardUrl}/v1/leaderboard/companies/nobody.example`, { headers: origin });
  const feedback = await fetch(`${open.feedbackUrl}/v1/feedback/nope`, { headers: origin });
  for (const res of [first, cached, missing, feedback]) {
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  }
  expect([first.status, cached.status, missing.status, feedback.status]).toEqual([200, 200, 404, 404]);
});

test('CORS_ORIGINS limits access to the listed origins', async () => {
  const allowed = await fetch(`${listed.leaderboardUrl}/v1/leaderboard/categories`, { headers: { Origin: 'http://localhost:5173' } });
  expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  expect(allowed.headers.get('vary')).toContain('Origin');
  const again = await fetch(`${listed.leaderboardUrl}/v1/leaderboard/categories`, { headers: { Origin: 'https://evil.example' } });
  expect(again.status).toBe(200); // the server answers; the browser withholds it from the other origin
  expect(again.headers.get('access-control-allow-origin')).toBeNull();
  const pre = await preflight(`${listed.leaderboardUrl}/v1/leaderboard/scans`, 'https://app.example.com');
  expect(pre.status).toBe(204);
  expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
  const refused = await preflight(`${listed.feedbackUrl}/v1/feedback/leaderboard/reports`, 'https://evil.example');
  expect(refused.status).toBe(204);
  expect(refused.headers.get('access-control-allow-origin')).toBeNull();
});

test('CORS_ORIGINS is validated at start-up', () => {
  expect(loadConfig({}).corsOrigins).toBe('*');
  expect(loadConfig({ CORS_ORIGINS: 'none' }).corsOrigins).toEqual([]);
  expect(loadConfig({ CORS_ORIGINS: 'https://a.example/,http://b.example:8080' }).corsOrigins).toEqual(['https://a.example', 'http://b.example:8080']);
  expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/app' })).toThrow(/CORS_ORIGINS/);
  expect(() => loadConfig({ CORS_ORIGINS: 'a.example' })).toThrow(/CORS_ORIGINS/);
});
