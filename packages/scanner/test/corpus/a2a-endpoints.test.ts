import type { ScanResult } from '../../src';
import { checkOf, scanCorpus, startA2aAgent } from './index';
import type { RunningServer } from './index';
import { freePort } from './processes';

/**
 * Verified, not declared (issue 39): the real A2A agent from @a2a-js/sdk, its card naming the JSON-RPC endpoint it
 * serves, and twins whose card names a path that is no endpoint (404) or a port where nothing listens. The scan asks
 * the named interface a method that does not exist (a JSON-RPC error proves a live endpoint; nothing is changed):
 * the working card passes and says so, the dead ones fail naming the endpoint, and the working twin scores higher.
 */

describe('A2A agent cards that point at something and at nothing', () => {
  const servers: RunningServer[] = [];
  const results: Record<string, ScanResult> = {};

  beforeAll(async () => {
    const started = await Promise.all([
      startA2aAgent(),
      startA2aAgent({ cardRpcUrl: '/a2a/nowhere' }),
      startA2aAgent({ cardRpcUrl: `http://127.0.0.1:${await freePort()}/a2a/jsonrpc` }),
    ]);
    servers.push(...started);
    const [working, notFound, refused] = await Promise.all(started.map((s) => scanCorpus(s.url)));
    Object.assign(results, { working, notFound, refused });
  });
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it('the working card passes and says its JSON-RPC endpoint answers', () => {
    const check = checkOf(results.working, 'a2a-agent-card');
    expect(check.status).toBe('passed');
    expect(check.detail).toMatch(/its JSON-RPC endpoint answers/);
  });

  it.each([
    ['notFound', /names http:\/\/127\.0\.0\.1:\d+\/a2a\/nowhere, but it does not answer JSON-RPC there \(HTTP 404/],
    ['refused', /names http:\/\/127\.0\.0\.1:\d+\/a2a\/jsonrpc, but nothing answers there/],
  ])('a card naming %s fails, naming the endpoint; the working twin scores higher', (name, detail) => {
    const check = checkOf(results[name], 'a2a-agent-card');
    expect(check.status).toBe('failed');
    expect(check.detail).toMatch(detail);
    expect(results.working.score!).toBeGreaterThan(results[name].score!);
  });
});
