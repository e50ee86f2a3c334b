// Dataset downloads nobody can hold (issue 40, item 3), over real HTTP on loopback. The download limit counts per
// client (the socket's address, as the scan limit does: clientAddress), so readers that stall from one address
// never refuse another address; a reader that takes nothing for the idle window is cut and its place freed; the
// day's snapshot (the file `npm run export` writes) is served as a file with ETag, Last-Modified and byte ranges,
// so a download resumes. Two addresses on loopback: a client binds 127.0.0.2 or 127.0.0.3 as its local address.
//
// The population is large enough (20,000 companies, ~35 MB of JSON Lines) that a reader who takes nothing stops
// the server: loopback's socket buffers hold a few MB, so a small download would simply be written out whole.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_DOWNLOADS } from '../src/open-data/handlers';
import { snapshotName, writeSnapshot } from '../src/open-data/snapshot';
import { startTestServer, type TestServer } from './support/harness';

const COMPANIES = 20_000;
const now = new Date('2026-11-20T12:00:00.000Z');
const clock = () => now;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** False when the connection ended before the whole body (a cut download). */
  complete: boolean;
}

interface Call {
  localAddress?: string;
  method?: string;
  headers?: Record<string, string>;
}

/** One request, its whole answer read (or as much as came before the connection ended). */
function call(url: string, options: Call = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, localAddress: options.localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', () => undefined);
      res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), complete: res.complete }));
    });
    req.on('error', reject);
    req.end();
  });
}

interface Stalled {
  status: number;
  /** Reads on from where the reader stopped, to the end of the connection. */
  resume(): Promise<{ complete: boolean; bytes: number }>;
  /** The reader goes away. */
  destroy(): void;
}

/** A download whose reader takes its first chunk and then nothing more. */
function stall(url: string, localAddress: string): Promise<Stalled> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { localAddress, agent: false }, (res) => {
      let bytes = 0;
      const closed = new Promise<void>((done) => res.on('close', () => done()));
      res.on('error', () => undefined);
      res.once('data', (c: Buffer) => {
        bytes += c.length;
        res.pause();
        resolve({
          status: res.statusCode ?? 0,
          async resume() {
            res.on('data', (more: Buffer) => (bytes += more.length));
            res.resume();
            await closed;
            return { complete: res.complete, bytes };
          },
          destroy: () => req.destroy(),
        });
      });
    });
    req.on('error', (err) => reject(err));
    req.end();
  });
}

/** Polls until the condition holds; the deadline only ends a hang. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 120_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** 20,000 ranked companies in one statement (no scans: every check cell is empty, which keeps the rows long in JSON Lines). */
async function populate(t: TestServer): Promise<void> {
  await t.runtime.db.executeSql(
    `INSERT INTO companies (id, name, website, domain, source, score, grade, scanned_at, updated_at)
     SELECT gen_random_uuid(), 'Bulk Company ' || i, 'https://bulk-' || i || '.example/', 'bulk-' || i || '.example',
            'curated', 60 + i % 15, 'C', $1::timestamptz - make_interval(secs => i), now()
     FROM generate_series(1, $2::int) AS i`,
    [now, COMPANIES],
  );
  // The live index was loaded (or not) before the rows: the next read loads it with them.
  t.runtime.leaderboard.invalidate();
  await t.runtime.leaderboard.current();
}

const lines = (body: Buffer) => body.toString('utf8').split('\n').filter(Boolean).length;

describe('dataset downloads: the limit per client, and the snapshot as a file', () => {
  let t: TestServer;
  let snapshots: string;

  beforeAll(async () => {
    snapshots = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-snapshots-'));
    t = await startTestServer({ clock, dbName: 'downloads', env: { DATASET_SNAPSHOT_DIR: snapshots } });
    await populate(t);
  });

  afterAll(async () => {
    await t?.close();
    fs.rmSync(snapshots, { recursive: true, force: true });
  });

  test(`${MAX_DOWNLOADS} stalled readers from one address do not stop another address's download; the next from the stalled address is 429`, async () => {
    const url = `${t.leaderboardUrl}/v1/leaderboard/dataset.jsonl`;
    const stalled = await Promise.all(Array.from({ length: MAX_DOWNLOADS }, () => stall(url, '127.0.0.2')));
    try {
      expect(stalled.map((s) => s.status)).toEqual(stalled.map(() => 200));

      const refused = await call(url, { localAddress: '127.0.0.2' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const error = JSON.parse(refused.body.toString('utf8')) as Record<string, unknown>;
      expect(Object.keys(error).sort()).toEqual(['code', 'message', 'requestId']);
      expect(error.code).toBe('rate_limited');
      expect(error.requestId).toBe(refused.headers['x-request-id']);

      // Another address: the whole file.
      const other = await call(url, { localAddress: '127.0.0.1' });
      expect(other.status).toBe(200);
      expect(other.complete).toBe(true);
      expect(lines(other.body)).toBe(COMPANIES);

      // The stalled downloads were still held (the body is larger than what the socket buffers took).
      const still = await call(url, { localAddress: '127.0.0.2' });
      expect(still.status).toBe(429);
    } finally {
      for (const s of stalled) s.destroy();
    }
    // The readers went away: their places are free again.
    const again = await until('a place for 127.0.0.2', async () => {
      const reply = await call(url, { localAddress: '127.0.0.2' });
      return reply.status === 429 ? undefined : reply;
    });
    expect(again.status).toBe(200);
    expect(lines(again.body)).toBe(COMPANIES);
  });

  test('the day\'s snapshot is served as a file: ETag, Last-Modified, a resumed download (206), 304, 416', async () => {
    const url = `${t.leaderboardUrl}/v1/leaderboard/dataset.csv`;
    // Before the export: the live stream, without ranges.
    const live = await call(url);
    expect(live.status).toBe(200);
    expect(live.headers['accept-ranges']).toBeUndefined();
    expect(live.headers.etag).toBeUndefined();

    const written = await writeSnapshot(t.runtime.leaderboard, t.runtime.db, { format: 'csv', dir: snapshots, query: {}, now });
    expect(path.basename(written.file)).toBe(snapshotName('csv', now, {}));
    const file = fs.readFileSync(written.file);
    expect(file.length).toBeGreaterThan(100_000);

    const whole = await call(url);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(file)).toBe(true);
    expect(whole.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(whole.headers['content-disposition']).toBe('attachment; filename="agent-readiness-2026-11-20.csv"');
    expect(whole.headers['content-length']).toBe(String(file.length));
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const etag = whole.headers.etag!;
    expect(etag).toMatch(/^"[^"]+"$/); // strong: If-Range may use it
    expect(new Date(whole.headers['last-modified']!).getTime()).toBe(Math.floor(fs.statSync(written.file).mtimeMs / 1000) * 1000);

    // A download cut after 100,000 bytes resumes where it stopped; the two parts are the file.
    const first = await call(url, { headers: { Range: 'bytes=0-99999' } });
    expect(first.status).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-99999/${file.length}`);
    expect(first.body.equals(file.subarray(0, 100_000))).toBe(true);
    const rest = await call(url, { headers: { Range: 'bytes=100000-', 'If-Range': etag } });
    expect(rest.status).toBe(206);
    expect(rest.headers['content-range']).toBe(`bytes 100000-${file.length - 1}/${file.length}`);
    expect(rest.headers.etag).toBe(etag);
    expect(Buffer.concat([first.body, rest.body]).equals(file)).toBe(true);

    // If-Range naming another version: the whole file, not a part of this one.
    const changed = await call(url, { headers: { Range: 'bytes=100000-', 'If-Range': '"another-version"' } });
    expect(changed.status).toBe(200);
    expect(changed.body.equals(file)).toBe(true);

    // The copy the client holds is current: 304, no body.
    const notModified = await call(url, { headers: { 'If-None-Match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers.etag).toBe(etag);

    // A range past the end: 416 with the size, and the contract's error body.
    const unsatisfiable = await call(url, { headers: { Range: `bytes=${file.length}-` } });
    expect(unsatisfiable.status).toBe(416);
    expect(unsatisfiable.headers['content-range']).toBe(`bytes */${file.length}`);
    expect(unsatisfiable.headers['content-disposition']).toBeUndefined();
    const error = JSON.parse(unsatisfiable.body.toString('utf8')) as Record<string, unknown>;
    expect(Object.keys(error).sort()).toEqual(['code', 'message', 'requestId']);
    expect(error.code).toBe('range_not_satisfiable');
    expect(error.requestId).toBe(unsatisfiable.headers['x-request-id']);

    // A precondition that fails: 412, the error body.
    const precondition = await call(url, { headers: { 'If-Match': '"another-version"' } });
    expect(precondition.status).toBe(412);
    expect(Object.keys(JSON.parse(precondition.body.toString('utf8')) as object).sort()).toEqual(['code', 'message', 'requestId']);

    // HEAD: the headers only.
    const head = await call(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(file.length));
    expect(head.headers.etag).toBe(etag);
    expect(head.body.length).toBe(0);

    // Another population has no snapshot of its own today: streamed live.
    const community = await call(`${url}?community=include`);
    expect(community.status).toBe(200);
    expect(community.headers['accept-ranges']).toBeUndefined();
    expect(lines(community.body)).toBe(COMPANIES + 1); // the header line
  });
});

describe('dataset downloads: the idle timeout', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ clock, dbName: 'downloads_idle', env: { DATASET_IDLE_TIMEOUT: '1s' } });
    await populate(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  test('a reader that takes nothing for the idle window is cut, and its place is free again', async () => {
    const url = `${t.leaderboardUrl}/v1/leaderboard/dataset.jsonl`;
    const stalled = await Promise.all(Array.from({ length: MAX_DOWNLOADS }, () => stall(url, '127.0.0.3')));
    try {
      expect(stalled.map((s) => s.status)).toEqual(stalled.map(() => 200));
      // Without reading anything more, the same address gets a whole download again once the idle window passed.
      const again = await until('the stalled downloads to be cut', async () => {
        const reply = await call(url, { localAddress: '127.0.0.3' });
        return reply.status === 429 ? undefined : reply;
      });
      expect(again.status).toBe(200);
      expect(again.complete).toBe(true);
      expect(lines(again.body)).toBe(COMPANIES);
      // The stalled downloads were ended, not completed: a reader resuming now finds the file cut short.
      for (const s of stalled) {
        const { complete, bytes } = await s.resume();
        expect(complete).toBe(false);
        expect(bytes).toBeLessThan(again.body.length);
      }
    } finally {
      for (const s of stalled) s.destroy();
    }
  });
});
