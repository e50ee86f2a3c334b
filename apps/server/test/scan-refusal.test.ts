// Issue 29: a site's own refusal ranks it last; a WAF's wall alone leaves the site unranked. Real personas on loopback,
// scanned through the API by the real worker (requests signed with Web Bot Auth), read back through the API.
import { PERSONAS, startSandbox, text, type Persona, type SandboxResponse } from '@arl/sandbox';
import { RescanScheduler } from '../src/rescans/scheduler';
import { pollUntil, startScanTestServer, type ScanTestServer } from './support/scan-harness';

const DAY = 86_400_000;
let now = new Date('2026-11-01T12:00:00.000Z');

/** What a bot-management product answers anything it does not take for a browser. */
const challenge = (extra: Record<string, string> = {}): SandboxResponse => ({
  status: 403,
  headers: { 'content-type': 'text/html; charset=UTF-8', 'cf-mitigated': 'challenge', server: 'cloudflare', ...extra },
  body: '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={cvId:"3"}</script></body></html>',
});

/** The company: robots.txt says no to everyone, its pages say noai, and every page challenges the scanner. */
const refusing = {
  name: 'refusing',
  hostname: 'refusing-co.test',
  path: '/',
  expected: { kind: 'website', ending: 'finished', grades: ['F'] },
  description: 'robots.txt disallows everything for everyone; every other answer is a challenge carrying X-Robots-Tag: noai.',
  gate: (req) => (req.path === '/robots.txt' ? undefined : challenge({ 'x-robots-tag': 'noai, noimageai' })),
  routes: { '/robots.txt': text('User-agent: *\nDisallow: /\n') },
} as Omit<Persona, 'name'> & { name: string } as Persona;

/** A WAF in front of everything, robots.txt included: nothing of the site itself is ever seen. */
const walled = {
  name: 'walled',
  hostname: 'walled-co.test',
  path: '/',
  expected: { kind: 'website', ending: 'failed', grades: [] },
  description: 'Every answer, robots.txt included, is a challenge.',
  gate: () => challenge(),
  routes: {},
} as Omit<Persona, 'name'> & { name: string } as Persona;

const others = ['exemplary', 'typical-saas', 'broken', 'garbage'] as const;
let t: ScanTestServer;

beforeAll(async () => {
  const sandbox = await startSandbox({ personas: [...PERSONAS.filter((p) => (others as readonly string[]).includes(p.name)), refusing, walled] });
  t = await startScanTestServer({ sandbox, clock: () => now });
});
afterAll(async () => {
  await t.close();
  await t.sandbox.close();
});

async function scanOf(name: string) {
  const { data, response } = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf(name as never) } });
  expect(response.status).toBe(202);
  return t.waitForEnd(data!.scan.id, 120_000);
}

test('a company that refuses agents in its robots.txt and at every page ends finished with an F and ranks last', async () => {
  for (const name of others) expect((await scanOf(name)).ending).toBe('finished');
  const scan = await scanOf('refusing');
  expect({ ending: scan.ending, grade: scan.grade, score: scan.score }).toEqual({ ending: 'finished', grade: 'F', score: 0 });
  expect(scan.cause).toMatch(/refusing-co\.test:\d+ refuses AI agents in its own words and in its answers/);

  const { data } = await t.client.GET('/v1/leaderboard', { params: { query: { community: 'include' } } });
  const ranking = data!.items.map((e) => ({ domain: e.company.domain, rank: e.rank, grade: e.grade, score: e.score }));
  expect(ranking).toHaveLength(others.length + 1);
  expect(ranking.at(-1)).toEqual({ domain: 'refusing-co.test', rank: others.length + 1, grade: 'F', score: 0 });

  const { data: report } = await t.client.GET('/v1/leaderboard/companies/{domain}/report', { params: { path: { domain: 'refusing-co.test' }, query: { community: 'include' } } });
  const check = (id: string) => report!.checks.find((c) => c.id === id)!;
  expect(check('ai-agents-not-blocked').status).toBe('failed');
  expect(check('ai-agents-not-blocked').evidence.detail).toMatch(/robots\.txt disallows \/ for every AI search and user-fetch agent.*signed with Web Bot Auth.*X-Robots-Tag: noai/);
  expect(check('ai-search-bots-allowed').status).toBe('failed');
  expect(check('llms-txt').status).toBe('couldnt_check');
});

test('a company behind a wall that answers even robots.txt with a challenge stays unranked with its cause, and is scanned again later', async () => {
  // Due now on the test's clock (the column's default is the database's now(), which this clock is not).
  await t.db.prisma.company.create({ data: { name: 'Walled Co', website: t.urlOf('walled' as never), domain: 'walled-co.test', source: 'curated', nextScanAt: now } });
  const scheduler = new RescanScheduler({
    db: t.db, scans: t.runtime.scans, queue: t.runtime.jobs, clock: () => now, logger: t.runtime.logger,
    intervalMs: 7 * DAY, concurrency: 2, tickMs: 60_000,
  });
  const ended = async () => pollUntil('the walled scans to end', async () => {
    const scans = await t.db.prisma.scan.findMany({ where: { domain: 'walled-co.test' }, orderBy: { createdAt: 'asc' } });
    return scans.length > 0 && scans.every((s) => s.state === 'ended') ? scans : undefined;
  }, 120_000);

  expect(await scheduler.tick()).toBe(1);
  const [first] = await ended();
  expect({ ending: first.ending, score: first.score }).toEqual({ ending: 'failed', score: null });
  expect(first.cause).toMatch(/walled-co\.test:\d+ answered our scanner with a Cloudflare challenge .* not scored or ranked/);

  const { data } = await t.client.GET('/v1/leaderboard', { params: { query: { community: 'include' } } });
  expect(data!.items.map((e) => e.company.domain)).not.toContain('walled-co.test');
  const { data: company } = await t.client.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain: 'walled-co.test' }, query: {} } });
  expect({ score: company!.score, rank: company!.rank, scannedAt: company!.scannedAt }).toEqual({ score: null, rank: null, scannedAt: null });

  // The rescan scheduler tries again next interval: the wall may be gone by then.
  now = new Date(now.getTime() + 8 * DAY);
  expect(await scheduler.tick()).toBe(1);
  const scans = await ended();
  expect(scans.map((s) => s.ending)).toEqual(['failed', 'failed']);
});
