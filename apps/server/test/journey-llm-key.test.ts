// The LLM API key never becomes public text and never reaches the log. A fake OpenAI-compatible endpoint on
// loopback answers every call with a 401 whose message echoes the key it was sent, in full and partly masked, as
// real providers do; the journey's public read (cause, steps) must carry only our own sentence, and the operator's
// log must carry the provider's words with the key masked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { pollUntil, startScanTestServer, type ScanTestServer } from './support/scan-harness';

const KEY = 'sk-live-SECRET-9999-0123456789abcdef';
const PARTLY_MASKED = 'sk-live-****************9999';

let t: ScanTestServer;
let endpoint: http.Server;
let echoed = 0;
const logLines: string[] = [];

beforeAll(async () => {
  endpoint = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const sent = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      echoed += sent === KEY ? 1 : 0;
      res.writeHead(401, { 'content-type': 'application/json' }).end(
        JSON.stringify({ error: { message: `Incorrect API key provided: ${sent} (${PARTLY_MASKED}). You can find your API key at https://example.com/keys.`, type: 'invalid_request_error' } }),
      );
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  t = await startScanTestServer({
    env: { LLM_BASE_URL: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`, LLM_MODEL: 'fake-model', LLM_API_KEY: KEY, LOG_LEVEL: 'debug' },
    logStream,
  });
  await t.db.prisma.company.create({ data: { name: 'Exemplary Co', website: t.urlOf('exemplary'), domain: 'exemplary-key.test', source: 'curated' } });
});
afterAll(async () => {
  await t.close();
  endpoint.closeAllConnections();
  await new Promise((resolve) => endpoint.close(resolve));
});

test('a provider that echoes the key: the journey says our sentence, the log masks the key', async () => {
  const { data, response } = await t.client.POST('/v1/leaderboard/companies/{domain}/journeys', { params: { path: { domain: 'exemplary-key.test' }, query: {} }, body: { task: 'find_pricing' } });
  expect(response.status).toBe(202);
  const journey = await pollUntil('the journey to end', async () => {
    const { data: j } = await t.client.GET('/v1/leaderboard/journeys/{journeyId}', { params: { path: { journeyId: data!.journey.id } } });
    return j?.state === 'ended' ? j : undefined;
  });
  expect(echoed).toBeGreaterThan(0);
  expect(journey).toMatchObject({ driver: 'llm', outcome: 'failed' });
  expect(journey.cause).toBe('The model endpoint refused our credentials (HTTP 401); the operator should check LLM_API_KEY.');

  const published = JSON.stringify(journey);
  for (const leak of [KEY, 'SECRET-9999', PARTLY_MASKED, 'Incorrect API key', 'example.com/keys']) expect(published).not.toContain(leak);

  await pollUntil('the failure to be logged', async () => logLines.some((l) => l.includes('the model endpoint failed')));
  const logged = logLines.join('\n');
  expect(logged).not.toContain(KEY);
  expect(logged).not.toContain('SECRET-9999');
  const failure = JSON.parse(logLines.find((l) => l.includes('the model endpoint failed'))!) as { endpoint: { status: number; providerMessage: string } };
  expect(failure.endpoint.status).toBe(401);
  expect(failure.endpoint.providerMessage).toMatch(/^Incorrect API key provided: \[redacted\]/);
});

test('the key is masked in any log line, whatever field or error carries it', async () => {
  const before = logLines.length;
  t.runtime.logger.error({ err: new Error(`upstream said ${KEY}`), nested: { text: `key=${KEY}` }, headers: { authorization: `Bearer ${KEY}` } }, `message with ${KEY}`);
  await pollUntil('the line', async () => logLines.length > before);
  const line = logLines.slice(before).join('\n');
  expect(line).not.toContain(KEY);
  expect(line).toContain('[redacted]');
});
