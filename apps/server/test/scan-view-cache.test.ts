// Operation 6's kept views (scans/view-cache.ts) answer exactly what the database holds after every kind of write a
// scan goes through, read through the API on loopback and compared with the uncached read. PGlite keeps live views;
// PostgreSQL (TEST_DATABASE_URL) only ended ones.
import { ScanService } from '../src/scans/service';
import { recordRunning, recordScoring, recordStep } from '../src/scans/events';
import { endScan } from '../src/scans/results';
import { SCAN_JOB } from '../src/scans/scan-job';
import { ScanViewCache } from '../src/scans/view-cache';
import { readScan, startScanTestServer, type ScanTestServer } from './support/scan-harness';

let t: ScanTestServer;
let uncached: ScanService;
beforeAll(async () => {
  t = await startScanTestServer({ worker: false });
  uncached = new ScanService({ db: t.db, queue: t.runtime.jobs, clock: () => new Date(), fetchPolicy: {}, queueLimit: 1000 });
});
afterAll(() => t.close());

async function submit(query: string): Promise<string> {
  const { data, error } = await t.client.POST('/v1/leaderboard/scans', { body: { url: `${t.urlOf('exemplary')}?${query}` } });
  if (error) throw new Error(JSON.stringify(error));
  return data!.scan.id;
}

/** Two reads through the API (the second may come from the kept view) and the uncached read agree. */
async function expectExact(id: string) {
  const first = await readScan(t.leaderboardUrl, id);
  const second = await readScan(t.leaderboardUrl, id);
  const stored = await uncached.read(id);
  expect(first).toEqual(stored);
  expect(second).toEqual(stored);
  return stored!;
}

const outcome = {
  ending: 'finished' as const, cause: 'done', score: 71, grade: 'B' as const, summary: 'fine', siteName: 'Kept Views', checks: [], layers: [],
};

test('every write of a scan shows in the next read: submit, running, steps, scoring, ended', async () => {
  const id = await submit('lifecycle');
  expect((await expectExact(id)).state).toBe('waiting');
  expect(await recordRunning(t.db, id, new Date())).not.toBeNull();
  expect((await expectExact(id)).state).toBe('running');
  await recordStep(t.db, id, 'discovery', new Date());
  expect((await expectExact(id)).events.map((e) => e.step)).toEqual(['waiting', 'running', 'discovery']);
  await recordScoring(t.db, id, new Date());
  expect((await expectExact(id)).state).toBe('scoring');
  await t.db.prisma.$transaction((tx) => endScan(tx, id, outcome, { queue: t.runtime.jobs, publicUrl: 'http://localhost', now: new Date() }));
  expect(await expectExact(id)).toMatchObject({ state: 'ended', ending: 'finished', score: 71, grade: 'B' });
});

test('a scan put back in the queue (its worker vanished) reads waiting again at once', async () => {
  const id = await submit('retried');
  await recordRunning(t.db, id, new Date());
  expect((await expectExact(id)).state).toBe('running');
  const kind = t.runtime.jobs.kind(SCAN_JOB)!;
  const job = { id: '00000000-0000-4000-8000-000000000000', kind: SCAN_JOB, payload: { scanId: id }, attempt: 1, maxAttempts: 2, timeoutMs: 1000 };
  await t.db.prisma.$transaction((tx) => kind.onRetry!(job, 'lease expired', tx));
  expect((await expectExact(id)).state).toBe('waiting');
});

test('an ended scan takes no more steps: a late report of a worker that lost it changes nothing', async () => {
  const id = await submit('late-steps');
  await recordRunning(t.db, id, new Date());
  await t.db.prisma.$transaction((tx) => endScan(tx, id, { ...outcome, ending: 'failed', score: null, grade: null }, { queue: t.runtime.jobs, publicUrl: 'http://localhost', now: new Date() }));
  const ended = await expectExact(id);
  await recordStep(t.db, id, 'usability', new Date());
  await recordScoring(t.db, id, new Date());
  expect(await recordRunning(t.db, id, new Date())).toBeNull();
  expect(await expectExact(id)).toEqual(ended);
  expect(ended.events.map((e) => e.step)).toEqual(['waiting', 'running', 'ended']);
});

describe('ScanViewCache', () => {
  const view = (state: 'waiting' | 'ended') => ({ id: 'a', state, domain: 'a.test', events: [] });

  test('a read that overlapped a change is not kept', () => {
    const cache = new ScanViewCache({ live: true });
    const since = cache.current;
    cache.changed('other');
    cache.keep('a', view('waiting'), since);
    expect(cache.get('a')).toBeUndefined();
    cache.keep('a', view('waiting'), cache.current);
    expect(cache.get('a')).toEqual(view('waiting'));
    cache.changed('a');
    expect(cache.get('a')).toBeUndefined();
  });

  test('without live views only ended scans are kept; a resync drops every view; the size is bounded', () => {
    const cache = new ScanViewCache({ live: false, max: 2 });
    cache.keep('a', view('waiting'), cache.current);
    expect(cache.get('a')).toBeUndefined();
    for (const id of ['a', 'b', 'c']) cache.keep(id, { ...view('ended'), id }, cache.current);
    expect(cache.get('a')).toBeUndefined(); // the oldest went
    expect(cache.get('c')).toMatchObject({ id: 'c' });
    cache.changed(null);
    expect(cache.get('b')).toBeUndefined();
  });

  test('callers get copies', () => {
    const cache = new ScanViewCache({ live: true });
    cache.keep('a', view('waiting'), cache.current);
    cache.get('a')!.state = 'ended';
    expect(cache.get('a')!.state).toBe('waiting');
  });
});
