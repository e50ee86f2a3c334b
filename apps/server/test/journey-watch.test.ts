// Journeys and the queue's failure rules: watch semantics under concurrent starts (no worker yet, so the journey
// stays waiting), a vanished worker (retried once, then interrupted) and a shutdown (interrupted at once).
import { startBackground, type Background } from '../src/jobs/background';
import { JOURNEY_JOB } from '../src/journeys/journey-job';
import { pollUntil, startScanTestServer, type ScanTestServer } from './support/scan-harness';
import type { PersonaName } from '@arl/sandbox';

let t: ScanTestServer;
let background: Background | null = null;
beforeAll(async () => {
  t = await startScanTestServer({ worker: false });
  for (const persona of ['typical-saas', 'exemplary', 'content-site', 'slow'] as PersonaName[]) {
    await t.db.prisma.company.create({ data: { name: persona, website: t.urlOf(persona), domain: new URL(t.urlOf(persona)).hostname, source: 'curated' } });
  }
});
afterAll(async () => {
  await background?.stop(5000);
  await t.close();
});

async function startJourney(domain: string, task: 'find_pricing' | 'api_docs' | 'get_support' | 'create_account' | 'get_started') {
  const { data, error, response } = await t.client.POST('/v1/leaderboard/companies/{domain}/journeys', { params: { path: { domain }, query: {} }, body: { task } });
  if (error) throw new Error(`${response.status} ${JSON.stringify(error)}`);
  return { status: response.status, body: data! };
}

async function readJourney(id: string) {
  const { data, error, response } = await t.client.GET('/v1/leaderboard/journeys/{journeyId}', { params: { path: { journeyId: id } } });
  if (error) throw new Error(`${response.status} ${JSON.stringify(error)}`);
  return data!;
}

const waitFor = (id: string, state: 'running' | 'ended') =>
  pollUntil(`journey ${id} to be ${state}`, async () => {
    const journey = await readJourney(id);
    return journey.state === state ? journey : undefined;
  });

/** Claims the journey's job as a worker that then dies: its lease runs out without a renewal. */
async function claimAsDeadWorker(journeyId: string, options: { lastAttempt?: boolean } = {}) {
  const [job] = await t.db.prisma.$queryRawUnsafe<Array<{ id: string }>>(`SELECT id FROM jobs WHERE kind = $1 AND payload->>'journeyId' = $2`, JOURNEY_JOB, journeyId);
  if (options.lastAttempt) await t.db.prisma.$executeRawUnsafe(`UPDATE jobs SET attempts = max_attempts - 1 WHERE id = $1::uuid`, job.id);
  // What claim() does, for this one job, with a lease that has already run out.
  const claimed = await t.db.prisma.$executeRawUnsafe(
    `UPDATE jobs SET state = 'active', attempts = attempts + 1, locked_by = 'dead-worker', locked_until = now() WHERE id = $1::uuid AND state = 'queued'`,
    job.id,
  );
  expect(claimed).toBe(1);
  await t.db.prisma.journey.update({ where: { id: journeyId }, data: { state: 'running', startedAt: new Date(), driver: 'heuristic', attempts: { increment: 1 } } });
}

test('20 concurrent starts for one company: exactly one journey is started, the 19 others watch it', async () => {
  const tasks = ['find_pricing', 'api_docs', 'get_support', 'create_account', 'get_started'] as const;
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => startJourney('typical-saas.test', tasks[i % tasks.length])));
  const started = answers.filter((a) => a.status === 202);
  expect(started).toHaveLength(1);
  expect(started[0].body).toEqual({ started: true, journey: { id: expect.any(String), state: 'waiting' } });
  const id = started[0].body.journey.id;
  expect(answers.filter((a) => a.status === 200)).toHaveLength(19);
  for (const a of answers.filter((x) => x.status === 200)) expect(a.body).toEqual({ started: false, journey: { id, state: 'waiting' } });
  const company = await t.db.prisma.company.findUniqueOrThrow({ where: { domain: 'typical-saas.test' } });
  expect(await t.db.prisma.journey.count({ where: { companyId: company.id } })).toBe(1);
  const jobs = await t.db.prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM jobs WHERE kind = $1 AND payload->>'journeyId' = $2`, JOURNEY_JOB, id);
  expect(jobs[0].n).toBe(1);
  // The watched journey keeps the task it was started with.
  expect((await readJourney(id)).task).toBe(tasks[answers.findIndex((a) => a.status === 202) % tasks.length]);
});

test('a vanished worker: the journey is retried once and ends normally; on its last attempt it ends interrupted', async () => {
  const retried = (await startJourney('exemplary-co.test', 'api_docs')).body.journey.id;
  const givenUp = (await startJourney('fern-journal.test', 'find_pricing')).body.journey.id;
  await claimAsDeadWorker(retried);
  await claimAsDeadWorker(givenUp, { lastAttempt: true });
  expect((await readJourney(retried)).state).toBe('running');

  // The dead worker's lease has run out already (claimAsDeadWorker); the live worker's own lease is long, so that on a
  // loaded machine a late renewal cannot make it look dead too (a 300 ms one could, and count one more attempt).
  background = startBackground(t.runtime, { pollMs: 20, leaseMs: 5_000 });
  const [first, second] = await Promise.all([waitFor(retried, 'ended'), waitFor(givenUp, 'ended')]);
  expect(first).toMatchObject({ outcome: 'succeeded', driver: 'heuristic' });
  expect(first.evidence).toContainEqual(expect.objectContaining({ kind: 'openapi_document' }));
  expect(await t.db.prisma.journey.findUniqueOrThrow({ where: { id: retried } })).toMatchObject({ attempts: 2, activeCompany: null });
  expect(second).toMatchObject({ outcome: 'interrupted', cause: 'The worker running the journey stopped unexpectedly (2 attempts).' });
  expect(await t.db.prisma.journey.findUniqueOrThrow({ where: { id: givenUp } })).toMatchObject({ activeCompany: null });
  // The company is free again.
  expect((await startJourney('fern-journal.test', 'find_pricing')).status).toBe(202);
});

test('a shutdown hands a running journey back to the queue (waiting, company still held); the next worker finishes it', async () => {
  background ??= startBackground(t.runtime, { pollMs: 20, leaseMs: 5_000 });
  const id = (await startJourney('slowpoke.test', 'api_docs')).body.journey.id;
  const running = await waitFor(id, 'running');
  expect(running.driver).toBe('heuristic');
  await background.stop(400); // a shutdown window far shorter than the slow site's journey
  background = null;
  expect((await readJourney(id)).state).toBe('waiting');
  expect(await t.db.prisma.journey.findUniqueOrThrow({ where: { id } })).toMatchObject({ activeCompany: expect.any(String), attempts: 1 });
  const job = (await t.db.executeSql(`SELECT state, attempts FROM jobs WHERE kind = 'journey' AND payload->>'journeyId' = $1`, [id])).rows[0];
  expect(job).toMatchObject({ state: 'queued', attempts: 0 });

  background = startBackground(t.runtime, { pollMs: 20, leaseMs: 5_000 });
  const ended = await waitFor(id, 'ended');
  expect(ended.outcome).not.toBe('interrupted');
  expect(await t.db.prisma.journey.findUniqueOrThrow({ where: { id } })).toMatchObject({ activeCompany: null, attempts: 2 });
});
