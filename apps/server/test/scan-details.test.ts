// Company reads from memory (leaderboard/scan-details.ts): the packed copy gives back exactly the rows it was given;
// once the latest scans' details are loaded a company read needs no database statement and answers byte for byte
// what the database path answers, for every company, population and case; details of scans no longer latest are
// forgotten.
import fc from 'fast-check';
import { ScanDetails, type ScanDetailRows } from '../src/leaderboard/scan-details';
import { insertCompany } from './support/fixtures';
import { startScanTestServer, type ScanTestServer } from './support/scan-harness';

test('packed details give back exactly the rows they were given', () => {
  const check = fc.record({
    checkId: fc.constantFrom('llms-txt', 'robots-txt', 'mcp-tools-list', 'x'),
    name: fc.string({ maxLength: 20 }),
    layer: fc.constantFrom('discovery', 'access', 'usability', 'payments'),
    tier: fc.constantFrom('required', 'recommended', 'emerging'),
    label: fc.oneof(fc.constant(null), fc.constantFrom('beta', 'draft')),
    bonus: fc.boolean(),
    status: fc.constantFrom('passed', 'failed', 'warning', 'not_applicable', 'couldnt_check'),
    earned: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.double({ min: 0, max: 20, noNaN: true })),
    points: fc.integer({ min: 0, max: 20 }),
  });
  const layer = fc.record({ layer: fc.constantFrom('discovery', 'access', 'usability', 'payments'), weight: fc.integer({ min: 0, max: 100 }), score: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 100 })) });
  const details = new ScanDetails();
  fc.assert(
    fc.property(fc.uuid(), fc.array(check, { maxLength: 60 }), fc.array(layer, { maxLength: 4 }), (id, checks, layers) => {
      const rows: ScanDetailRows = { layers, checks };
      expect(details.put(id, rows)).toBe(true);
      expect(JSON.stringify(details.get(id))).toBe(JSON.stringify(rows));
    }),
    { numRuns: 300, seed: 5 },
  );
  details.retainOnly(new Set());
  expect(details.size).toBe(0);
});

test('a check row with the same catalog entry, status and whole points, and a layer row with the same score, read back as one frozen object for every scan', () => {
  const details = new ScanDetails();
  const check = (status: string, earned: number) => ({ checkId: 'llms-txt', name: 'llms.txt', layer: 'discovery', tier: 'required', label: null, bonus: false, status, earned, points: 10 });
  const layer = (score: number | null) => ({ layer: 'discovery', weight: 25, score });
  const rows = (): ScanDetailRows => ({ layers: [layer(50), layer(null)], checks: [check('passed', 10), check('warning', 2.5), check('failed', 0)] });
  const [a, b] = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];
  details.put(a, rows());
  details.put(b, rows());
  const first = details.get(a)!;
  const second = details.get(b)!;
  expect(JSON.stringify(second)).toBe(JSON.stringify(rows()));
  for (const i of [0, 2]) {
    expect(second.checks[i]).toBe(first.checks[i]);
    expect(Object.isFrozen(first.checks[i])).toBe(true);
  }
  expect(second.layers[0]).toBe(first.layers[0]);
  expect(second.layers[1]).toBe(first.layers[1]);
  expect(second.layers[0]).not.toBe(second.layers[1]);
  // Fractional points are stored as they are and read back as a row of their own.
  expect(second.checks[1]).not.toBe(first.checks[1]);
  expect(second.checks[1]).toEqual(first.checks[1]);
});

describe('through the server', () => {
  let t: ScanTestServer;
  const domains: string[] = [];
  beforeAll(async () => {
    t = await startScanTestServer({ latencyMs: 0 });
    for (const persona of ['typical-saas', 'exemplary', 'mcp-app', 'bare-mcp'] as const) {
      const started = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf(persona) } });
      domains.push((await t.waitForEnd(started.data!.scan.id)).domain);
    }
    // Companies without a scan (never scanned, or scored without one): the database path answers them.
    await insertCompany(t.db, { name: 'Scored Without Scan', domain: 'noscan.example', score: 70, category: 'payments' });
    await insertCompany(t.db, { name: 'Never Scanned', domain: 'never.example', score: null });
    domains.push('noscan.example', 'never.example', 'missing.example');
    await t.runtime.changes.publish();
  });
  afterAll(() => t.close());

  const read = async (path: string) => {
    const res = await fetch(`${t.leaderboardUrl}${path}`, { headers: { 'X-Request-Id': 'details' } });
    return { status: res.status, body: await res.text() };
  };
  const paths = () => domains.flatMap((d) => [`/v1/leaderboard/companies/${d}`, `/v1/leaderboard/companies/${d.toUpperCase()}?community=include`]);

  test('company reads from memory answer what the database path answers, with no statement once loaded', async () => {
    const service = t.runtime.leaderboard;
    // A fresh snapshot with nothing kept: the first reads go to the database.
    await t.runtime.changes.publish();
    const fromDatabase = new Map<string, { status: number; body: string }>();
    for (const path of paths()) fromDatabase.set(path, await read(path));
    expect([...fromDatabase.values()].filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(6);

    await t.runtime.changes.publish(); // drops cached answers; the rebuild fills the details in the background
    await service.current();
    await service.fillDetails();
    expect(service.detailsKept()).toBe(4);
    const db = t.runtime.db;
    const executeSql = db.executeSql.bind(db);
    let statements = 0;
    // The company read's statement (other work of the server, such as a snapshot rebuild, may run meanwhile).
    db.executeSql = (text, values) => {
      if (/FROM companies c/.test(text)) statements++;
      return executeSql(text, values);
    };
    try {
      for (const path of paths().filter((p) => /saas|exemplary|mcp/i.test(p))) {
        expect({ path, ...(await read(path)) }).toEqual({ path, ...fromDatabase.get(path) });
      }
      expect(statements).toBe(0);
      for (const path of paths()) expect({ path, ...(await read(path)) }).toEqual({ path, ...fromDatabase.get(path) });
    } finally {
      db.executeSql = executeSql;
    }
  });

  test("a new scan's details replace the old one's, which are forgotten", async () => {
    const service = t.runtime.leaderboard;
    const before = await read(`/v1/leaderboard/companies/${domains[0]}?community=include`);
    const started = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf('typical-saas') } });
    const scan = await t.waitForEnd(started.data!.scan.id);
    expect(scan.ending).toBe('finished');
    await service.current();
    await service.fillDetails();
    expect(service.detailsKept()).toBe(4);
    const after = await read(`/v1/leaderboard/companies/${domains[0]}?community=include`);
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body).scannedAt).not.toBe(JSON.parse(before.body).scannedAt);
  });
});

test('forgetting most scans frees their pages, and what is kept reads back unchanged after the compactions', () => {
  const details = new ScanDetails();
  const rowsOf = (i: number): ScanDetailRows => ({
    layers: [{ layer: 'discovery', weight: 30, score: i % 3 === 0 ? null : i % 101 }],
    // Points small and large, whole and fractional: both encodings of a number.
    checks: Array.from({ length: 40 }, (_, k) => ({
      checkId: `c${k}`, name: `Check ${k}`, layer: 'access', tier: 'required', label: null, bonus: false,
      status: k % 2 ? 'passed' : 'failed', earned: k === 7 ? i / 7 : k === 8 ? 70000 + i : (i + k) % 11, points: 10,
    })),
  });
  const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const n = 20_000; // ~5 MB of records: several pages
  for (let i = 0; i < n; i++) expect(details.put(id(i), rowsOf(i))).toBe(true);
  const full = details.bytesHeld;
  expect(full).toBeGreaterThan(4 << 20);
  // Forget three in four (in an order that leaves holes everywhere), then replace some kept ones with new rows.
  for (let i = 0; i < n; i++) if (i % 4 !== 0) details.delete(id(i));
  for (let i = 0; i < n; i += 8) expect(details.put(id(i), rowsOf(i + 1))).toBe(true);
  expect(details.size).toBe(n / 4);
  expect(details.bytesHeld).toBeLessThan(full / 2);
  for (let i = 0; i < n; i++) {
    const expected = i % 4 !== 0 ? undefined : JSON.stringify(rowsOf(i % 8 === 0 ? i + 1 : i));
    const got = details.get(id(i));
    if ((got && JSON.stringify(got)) !== expected) throw new Error(`scan ${i}: ${JSON.stringify(got)?.slice(0, 200)}`);
  }
  details.retainOnly(new Set());
  expect(details.size).toBe(0);
  expect(details.bytesHeld).toBeLessThanOrEqual(1 << 20); // at most the page being filled
});
