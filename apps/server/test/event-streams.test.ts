// Live progress as Server-Sent Events through the real server and worker: past events first, then live ones, the
// final state last; Last-Event-ID resumes; heartbeats; limits per client and in total; shutdown closes streams.
// With PostgreSQL the scan also runs in another runtime (its own connections), so LISTEN/NOTIFY carries it.
import { createDb } from '@arl/db';
import { createLogger } from '../src/logger';
import { startBackground } from '../src/jobs/background';
import { createRuntime } from '../src/runtime';
import { expectErrorBody } from './support/harness';
import { pollUntil, startScanTestServer, type ScanTestServer } from './support/scan-harness';
import { readEventStream, type SseEvent } from './support/sse';

let t: ScanTestServer;
beforeAll(async () => {
  t = await startScanTestServer({ latencyMs: 15, streamLimits: { heartbeatMs: 200, perClient: 3, recheckMs: 60_000 } });
  await t.db.prisma.company.create({ data: { name: 'Typical', website: t.urlOf('typical-saas'), domain: new URL(t.urlOf('typical-saas')).hostname, source: 'curated' } });
});
afterAll(() => t.close());

const startScan = async (persona: 'exemplary' | 'content-site' | 'typical-saas') => {
  const { data, error } = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf(persona) } });
  if (error) throw new Error(JSON.stringify(error));
  return data!.scan.id;
};
const steps = (events: SseEvent[]) => events.filter((e) => e.event === 'step');
const ended = (events: SseEvent[]) => events.some((e) => e.event === 'scan' || e.event === 'journey');

test('a scan streams its steps live, then its final state, and the server closes the stream', async () => {
  const scanId = await startScan('exemplary');
  const url = `${t.leaderboardUrl}/v1/leaderboard/scans/${scanId}/events`;
  const stream = await readEventStream(url, { headers: { Origin: 'https://app.example' } });
  expect(stream.status).toBe(200);
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect(stream.headers.get('x-request-id')).toBeTruthy();
  expect(stream.headers.get('access-control-allow-origin')).toBe('*');
  expect(stream.closedByServer).toBe(true);

  const scan = await t.waitForEnd(scanId);
  const stepEvents = steps(stream.events);
  expect(stepEvents.map((e) => JSON.parse(e.data).step)).toEqual(scan.events.map((e) => e.step));
  expect(stepEvents.map((e) => JSON.parse(e.data))).toEqual(scan.events);
  const ids = stepEvents.map((e) => Number(e.id));
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  expect(new Set(ids).size).toBe(ids.length);
  const last = stream.events.at(-1)!;
  expect(last.event).toBe('scan');
  expect(last.id).toBeUndefined();
  expect(JSON.parse(last.data)).toEqual(scan);

  // Resume after the third step: only what came after it, then the final state.
  const resumed = await readEventStream(url, { headers: { 'Last-Event-ID': String(ids[2]) } });
  expect(steps(resumed.events).map((e) => Number(e.id))).toEqual(ids.slice(3));
  expect(resumed.events.at(-1)!.event).toBe('scan');
  // Everything seen and the scan over: 204 tells an EventSource to stop reconnecting.
  const done = await readEventStream(url, { headers: { 'Last-Event-ID': String(ids.at(-1)) } });
  expect(done.status).toBe(204);
  expect(done.headers.get('x-request-id')).toBeTruthy();
});

test('a waiting scan gets heartbeats; bounds: malformed ids 400, unknown ids 404, more than 3 per client 429', async () => {
  const waiting = (await t.db.prisma.scan.create({ data: { target: 'https://quiet.test/', url: 'https://quiet.test/', domain: 'quiet.test', state: 'waiting', events: { create: { step: 'waiting', at: new Date() } } } })).id;
  const url = `${t.leaderboardUrl}/v1/leaderboard/scans/${waiting}/events`;
  const quiet = await readEventStream(url, { until: (_e, comments) => comments.length >= 2 });
  expect(quiet.status).toBe(200);
  expect(steps(quiet.events).map((e) => JSON.parse(e.data).step)).toEqual(['waiting']);
  expect(quiet.comments.length).toBeGreaterThanOrEqual(2);

  // Held open until the fourth has been refused (not for a fixed 3 s, which a loaded machine can use up before then).
  const holding = new AbortController();
  const open = [0, 1, 2].map(() => readEventStream(url, { until: () => false, signal: holding.signal }));
  await pollUntil('three open streams', async () => t.runtime.streams.size >= 3);
  const refused = await fetch(url);
  expectErrorBody({ status: refused.status, headers: Object.fromEntries(refused.headers), body: await refused.json() }, 429, 'rate_limited');
  holding.abort();
  await Promise.all(open);
  await pollUntil('streams to close', async () => t.runtime.streams.size === 0);

  const bad = await fetch(`${t.leaderboardUrl}/v1/leaderboard/scans/${waiting}/events`, { headers: { 'Last-Event-ID': 'abc' } });
  expectErrorBody({ status: bad.status, headers: Object.fromEntries(bad.headers), body: await bad.json() }, 400, 'bad_request');
  const unknown = await fetch(`${t.leaderboardUrl}/v1/leaderboard/scans/00000000-0000-4000-8000-000000000000/events`);
  expectErrorBody({ status: unknown.status, headers: Object.fromEntries(unknown.headers), body: await unknown.json() }, 404, 'not_found');
});

test('a journey streams its state, each step, then the journey', async () => {
  const { data } = await t.client.POST('/v1/leaderboard/companies/{domain}/journeys', {
    params: { path: { domain: new URL(t.urlOf('typical-saas')).hostname }, query: {} },
    body: { task: 'find_pricing' },
  });
  const journeyId = data!.journey.id;
  const url = `${t.leaderboardUrl}/v1/leaderboard/journeys/${journeyId}/events`;
  const stream = await readEventStream(url);
  expect(stream.closedByServer).toBe(true);
  const final = stream.events.at(-1)!;
  expect(final.event).toBe('journey');
  const journey = JSON.parse(final.data);
  expect(journey).toMatchObject({ id: journeyId, state: 'ended', task: 'find_pricing' });
  const { data: read } = await t.client.GET('/v1/leaderboard/journeys/{journeyId}', { params: { path: { journeyId } } });
  expect(journey).toEqual(read);
  expect(steps(stream.events).map((e) => JSON.parse(e.data))).toEqual(journey.steps);
  expect(steps(stream.events).map((e) => e.id)).toEqual(journey.steps.map((_: unknown, i: number) => String(i + 1)));
  expect(stream.events[0]).toMatchObject({ event: 'state' });
  expect(stream.events.filter((e) => e.event === 'state').map((e) => JSON.parse(e.data).state).at(-1)).toBe('ended');

  const resumed = await readEventStream(url, { headers: { 'Last-Event-ID': '1' } });
  expect(steps(resumed.events).map((e) => e.id)).toEqual(journey.steps.slice(1).map((_: unknown, i: number) => String(i + 2)));
  expect((await readEventStream(url, { headers: { 'Last-Event-ID': String(journey.steps.length) } })).status).toBe(204);
});

const postgres = process.env.TEST_DATABASE_URL;
// PGlite cannot be opened by a second runtime, so this one exists only with PostgreSQL (like the two-worker test).
if (postgres) test('PostgreSQL: a scan run by another runtime (its own connections) reaches the stream through LISTEN/NOTIFY', async () => {
  // This server's own worker is stopped; a second runtime on the same schema runs the scan.
  await t.background?.stop(5000);
  const db = await createDb({ databaseUrl: postgres, schema: t.db.schema });
  const other = await createRuntime(t.config, { logger: createLogger('silent'), db, prepare: false, fetchPolicy: { lookup: t.sandbox.lookup } });
  try {
    const scanId = await startScan('content-site');
    const reading = readEventStream(`${t.leaderboardUrl}/v1/leaderboard/scans/${scanId}/events`, { until: ended });
    await pollUntil('the stream to open', async () => t.runtime.streams.size === 1);
    const worker = startBackground(other, { pollMs: 50 });
    const stream = await reading;
    await worker.stop(5000);
    expect(stream.events.at(-1)!.event).toBe('scan');
    expect(steps(stream.events).map((e) => JSON.parse(e.data).step)).toContain('checking');
  } finally {
    await other.close();
    await db.close();
  }
});

test('shutdown ends open streams and refuses new ones', async () => {
  const waiting = (await t.db.prisma.scan.create({ data: { target: 'https://later.test/', url: 'https://later.test/', domain: 'later.test', state: 'waiting' } })).id;
  const url = `${t.leaderboardUrl}/v1/leaderboard/scans/${waiting}/events`;
  const reading = readEventStream(url);
  await pollUntil('the stream to open', async () => t.runtime.streams.size === 1);
  t.runtime.streams.closeAll();
  const stream = await reading;
  expect(stream.closedByServer).toBe(true);
  const refused = await fetch(url);
  expect(refused.status).toBe(503);
  expect(((await refused.json()) as { code: string }).code).toBe('service_unavailable');
});
