// Journeys end to end: operation 4 -> job on the shared queue -> journeys engine against the sandbox personas ->
// the getJourney extension, through the typed client. PGlite by default, PostgreSQL with TEST_DATABASE_URL.
import request from 'supertest';
import { expectErrorBody } from './support/harness';
import { pollUntil, startScanTestServer, type ScanTestServer } from './support/scan-harness';
import type { PersonaName } from '@arl/sandbox';

let t: ScanTestServer;
beforeAll(async () => {
  t = await startScanTestServer({ latencyMs: 2 });
  const company = (name: string, persona: PersonaName, source: 'curated' | 'community' = 'curated') =>
    t.db.prisma.company.create({ data: { name, website: t.urlOf(persona), domain: new URL(t.urlOf(persona)).hostname, source } });
  await company('Exemplary Co', 'exemplary');
  await company('Hostile Corp', 'hostile');
  await company('Members Only', 'sign-in-wall');
  await company('Typical SaaS', 'typical-saas');
  await company('Fern Journal', 'content-site', 'community');
});
afterAll(() => t.close());

type Task = 'understand_product' | 'find_pricing' | 'get_started' | 'api_docs' | 'create_account' | 'get_support';

async function startJourney(domain: string, task?: Task, community = false) {
  const { data, error, response } = await t.client.POST('/v1/leaderboard/companies/{domain}/journeys', {
    params: { path: { domain }, query: community ? { community: 'include' } : {} },
    body: task ? { task } : {},
  });
  if (error) throw new Error(`${response.status} ${JSON.stringify(error)}`);
  return { status: response.status, body: data! };
}

async function readJourney(id: string) {
  const { data, error, response } = await t.client.GET('/v1/leaderboard/journeys/{journeyId}', { params: { path: { journeyId: id } } });
  if (error) throw new Error(`${response.status} ${JSON.stringify(error)}`);
  return data!;
}

const waitForEnd = (id: string) =>
  pollUntil(`journey ${id} to end`, async () => {
    const journey = await readJourney(id);
    return journey.state === 'ended' ? journey : undefined;
  });

test('exemplary: find_pricing starts (202 waiting), runs on the queue and succeeds with the pricing URL and a plan price', async () => {
  const { status, body } = await startJourney('exemplary-co.test', 'find_pricing');
  expect(status).toBe(202);
  expect(body).toEqual({ started: true, journey: { id: expect.any(String), state: 'waiting' } });
  const journey = await waitForEnd(body.journey.id);
  expect(journey).toMatchObject({ id: body.journey.id, state: 'ended', task: 'find_pricing', domain: 'exemplary-co.test', outcome: 'succeeded', driver: 'heuristic' });
  const pricingUrl = `${t.urlOf('exemplary')}pricing`;
  expect(journey.evidence).toContainEqual({ kind: 'pricing_page', url: pricingUrl, detail: 'Pricing – Exemplary Co' });
  expect(journey.evidence).toContainEqual({ kind: 'plan_price', url: pricingUrl, detail: 'Pro: 49 USD (schema.org Offer)' });
  expect(journey.steps[0]).toMatchObject({ url: t.urlOf('exemplary'), action: 'open_url' });
  expect(journey.steps.some((s) => s.url === pricingUrl && s.action === 'follow_link')).toBe(true);
  expect(journey.steps.at(-1)!.action).toBe('finish');
  expect(journey.cause).toMatch(/plan price/);
  expect(journey.durationMs).toEqual(expect.any(Number));
  expect(Date.parse(journey.startedAt!)).toBeGreaterThanOrEqual(Date.parse(journey.createdAt));
  expect(Date.parse(journey.endedAt!)).toBeGreaterThanOrEqual(Date.parse(journey.startedAt!));
  const row = await t.db.prisma.journey.findUniqueOrThrow({ where: { id: body.journey.id } });
  expect(row).toMatchObject({ activeCompany: null, attempts: 1 });
});

test('no task: the default is understand_product; the domain matches case-insensitively', async () => {
  const { status, body } = await startJourney('Exemplary-Co.TEST');
  expect(status).toBe(202);
  const journey = await waitForEnd(body.journey.id);
  expect(journey).toMatchObject({ task: 'understand_product', outcome: 'succeeded' });
  expect(journey.evidence).toContainEqual(expect.objectContaining({ kind: 'product_summary', detail: expect.stringMatching(/invoicing API/) }));
});

test.each([
  ['hostile-corp.test', 'get_support', 'blocked', /refused the agent/],
  ['members-only.test', 'create_account', 'sign_in_required', /requires signing in/],
] as const)('%s: %s ends %s', async (domain, task, outcome, cause) => {
  const { body } = await startJourney(domain, task);
  const journey = await waitForEnd(body.journey.id);
  expect(journey).toMatchObject({ outcome, task });
  expect(journey.cause).toMatch(cause);
});

test('community companies answer 404 unless community=include, like getCompany', async () => {
  const hidden = await request(t.leaderboardUrl).post('/v1/leaderboard/companies/fern-journal.test/journeys').send({});
  expectErrorBody(hidden, 404, 'not_found');
  const { status, body } = await startJourney('fern-journal.test', 'find_pricing', true);
  expect(status).toBe(202);
  const journey = await waitForEnd(body.journey.id);
  expect(journey).toMatchObject({ outcome: 'failed', cause: expect.stringMatching(/^No plan price was found/) });
});

test.each([
  ['an unknown company', '/v1/leaderboard/companies/nobody.example/journeys', { task: 'find_pricing' }, 404, 'not_found'],
  ['an unknown task', '/v1/leaderboard/companies/exemplary-co.test/journeys', { task: 'buy_everything' }, 400, 'bad_request'],
  ['an unknown body field', '/v1/leaderboard/companies/exemplary-co.test/journeys', { task: 'find_pricing', hurry: true }, 400, 'bad_request'],
  ['a body that is not an object', '/v1/leaderboard/companies/exemplary-co.test/journeys', ['find_pricing'], 400, 'bad_request'],
  ['an unknown community value', '/v1/leaderboard/companies/exemplary-co.test/journeys?community=all', {}, 400, 'bad_request'],
  ['a domain over 253 characters', `/v1/leaderboard/companies/${'a'.repeat(254)}/journeys`, {}, 400, 'bad_request'],
])('POST with %s is refused', async (_label, url, body, status, code) => {
  expectErrorBody(await request(t.leaderboardUrl).post(url).send(body as object), status, code);
});

test.each([
  ['an unknown journey', '/v1/leaderboard/journeys/8c3c1b4e-1f7a-4c2e-9a55-0a0d8f6a1e21', 404, 'not_found'],
  ['an id that is not a lowercase uuid', '/v1/leaderboard/journeys/8C3C1B4E-1F7A-4C2E-9A55-0A0D8F6A1E21', 400, 'bad_request'],
  ['an id that is not a uuid', '/v1/leaderboard/journeys/latest', 400, 'bad_request'],
])('GET %s is refused', async (_label, url, status, code) => {
  expectErrorBody(await request(t.leaderboardUrl).get(url), status, code);
});
