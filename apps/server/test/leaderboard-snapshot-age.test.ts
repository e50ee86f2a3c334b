// When the ranked snapshot is rebuilt: a change always waits for a snapshot built after it (even when a rebuild was
// already running when the change came); a snapshot that is only old is answered from while a fresh one is built
// in the background, for at most one more max age.
import { SNAPSHOT_MAX_AGE_MS } from '../src/leaderboard/service';
import { startTestServer, type TestServer } from './support/harness';
import { insertCompany } from './support/fixtures';

let now = new Date('2026-11-22T12:00:00.000Z');
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock: () => now });
  await insertCompany(t.runtime.db, { name: 'First', domain: 'first.example', score: 50 });
});
afterAll(() => t.close());

const domains = (snap: Awaited<ReturnType<TestServer['runtime']['leaderboard']['current']>>) => snap.populations.all.ranked.map((e) => e.company.domain).sort();

test('a change made while a rebuild is running is in the snapshot the next read gets', async () => {
  const service = t.runtime.leaderboard;
  service.invalidate();
  const early = service.current(); // a rebuild starts and reads the companies before the change below
  await insertCompany(t.runtime.db, { name: 'During', domain: 'during.example', score: 60 });
  await t.runtime.changes.publish();
  expect(domains(await service.current())).toContain('during.example');
  await early;
});

test('an old snapshot is answered from while a fresh one is built; past the grace, reads wait for the rebuild', async () => {
  const service = t.runtime.leaderboard;
  const built = await service.current();
  await insertCompany(t.runtime.db, { name: 'Quiet', domain: 'quiet.example', score: 70 }); // written without a change published
  now = new Date(now.getTime() + SNAPSHOT_MAX_AGE_MS + 1000);
  // Old: the same snapshot answers at once (and is still the cache's version), while the rebuild runs.
  expect(await service.current()).toBe(built);
  expect(service.currentVersion()).toBe(built);
  let fresh = await service.current();
  for (let i = 0; i < 100 && fresh === built; i++) {
    await new Promise((r) => setTimeout(r, 20));
    fresh = await service.current();
  }
  expect(fresh).not.toBe(built);
  expect(fresh.builtAt).toEqual(now);
  expect(domains(fresh)).toContain('quiet.example');

  // Past twice the max age nothing old is answered: the read waits for a snapshot built now.
  now = new Date(now.getTime() + 2 * SNAPSHOT_MAX_AGE_MS + 1000);
  expect(service.currentVersion()).toBeNull();
  const waited = await service.current();
  expect(waited.builtAt).toEqual(now);
});

test("each new snapshot's warmers run after its details are filled, with that snapshot", async () => {
  const service = t.runtime.leaderboard;
  const seen: unknown[] = [];
  service.onSnapshot(async (snap) => {
    seen.push(snap);
  });
  await t.runtime.changes.publish();
  // A fill pass may still be finishing for an earlier snapshot (it then runs again for the current one).
  let snap = await service.current();
  for (let i = 0; i < 50 && !seen.includes(snap); i++) {
    await service.fillDetails();
    await new Promise((r) => setTimeout(r, 20));
    snap = await service.current();
  }
  expect(seen).toContain(snap);
});
