// Operations 7 and 8: the card and its companions, every bound of a report (table-driven), repeat detection
// (key order, whitespace, concurrency), project rules (not accepting, signed-only with every kind of bad token),
// the body cap and the rate limits.
import request from 'supertest';
import { contentHash } from '../src/feedback/canonical';
import { InviteTokens } from '../src/feedback/invite-token';
import { insertProject, issueInvite } from './feedback-fixtures';
import { expectErrorBody, startTestServer, type TestServer } from './support/harness';

const START = new Date('2026-11-20T12:00:00.000Z');
let now = START.getTime();
let t: TestServer;
let signedId: string;
let otherSignedId: string;

beforeAll(async () => {
  t = await startTestServer({ env: { FEEDBACK_RATE_LIMIT: '0', FEEDBACK_PUBLIC_URL: 'https://feedback.example.org' }, clock: () => new Date(now) });
  await insertProject(t.runtime.db, { slug: 'open', name: 'Open Project' });
  await insertProject(t.runtime.db, { slug: 'closed', accepting: false });
  signedId = await insertProject(t.runtime.db, { slug: 'signed', signedOnly: true });
  otherSignedId = await insertProject(t.runtime.db, { slug: 'signed-other', signedOnly: true });
  await insertProject(t.runtime.db, {
    slug: 'xss',
    name: '<script>alert("name")</script>',
    invitation: '<img src=x onerror=alert(1)>',
    guidance: `"quoted" & 'single' </p><script>alert(2)</script>`,
  });
});
afterAll(() => t.close());
beforeEach(() => {
  now = START.getTime();
});

const post = (slug: string, body: unknown) => request(t.feedbackUrl).post(`/v1/feedback/${slug}/reports`).send(body as object);
let serial = 0;
const unique = () => `Observation number ${++serial} of the feedback tests.`;
const base = () => ({ observation: unique(), outcome: 'friction' });
const s = (n: number, ch = 'a') => ch.repeat(n);

describe('card', () => {
  test('carries the project, absolute URLs from FEEDBACK_PUBLIC_URL and the report schema from the contract', async () => {
    const { data, response } = await t.feedback.GET('/v1/feedback/{slug}', { params: { path: { slug: 'open' } } });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      slug: 'open',
      name: 'Open Project',
      accepting: true,
      signedOnly: false,
      invitation: 'Tell us how it went.',
      guidance: 'Say what you tried and what happened.',
      pageUrl: 'https://feedback.example.org/v1/feedback/open/page',
      collectionUrl: 'https://feedback.example.org/v1/feedback/open/reports',
      reportSchemaUrl: 'https://feedback.example.org/v1/feedback/open/report-schema',
    });
    const schema = data!.reportSchema as Record<string, any>;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(data!.reportSchemaUrl);
    expect(schema.required).toEqual(['observation', 'outcome']);
    expect(schema.properties.observation).toMatchObject({ minLength: 10, maxLength: 4000 });
    expect(schema.properties.metadata.maxProperties).toBe(20);
    expect(schema.additionalProperties).toBe(false);
  });

  test('the report-schema URL serves the card schema; a signed-only project requires invite', async () => {
    const card = (await request(t.feedbackUrl).get('/v1/feedback/open')).body;
    const served = await request(t.feedbackUrl).get('/v1/feedback/open/report-schema');
    expect(served.status).toBe(200);
    expect(served.body).toEqual(card.reportSchema);
    const signed = await request(t.feedbackUrl).get('/v1/feedback/signed/report-schema');
    expect(signed.body.required).toEqual(['observation', 'outcome', 'invite']);
    expect((await request(t.feedbackUrl).get('/v1/feedback/signed')).body.signedOnly).toBe(true);
  });

  test('unknown projects answer 404 on every path; slug bounds answer 400', async () => {
    for (const p of ['', '/report-schema', '/page']) expectErrorBody(await request(t.feedbackUrl).get(`/v1/feedback/nope${p}`), 404, 'not_found');
    expectErrorBody(await post('nope', base()), 404, 'not_found');
    expectErrorBody(await request(t.feedbackUrl).get(`/v1/feedback/${s(65)}`), 400, 'bad_request');
    expectErrorBody(await request(t.feedbackUrl).get(`/v1/feedback/${s(64)}`), 404, 'not_found');
  });

  test('the HTML page shows the card, guidance and an example, and escapes everything', async () => {
    const res = await request(t.feedbackUrl).get('/v1/feedback/xss/page');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const html = res.text;
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&quot;quoted&quot; &amp; &#39;single&#39; &lt;/p&gt;');
    expect(html).toContain('https://feedback.example.org/v1/feedback/xss/reports');
    expect(html).toContain('&quot;observation&quot;');
  });
});

describe('report bounds', () => {
  const emoji = '\u{1F600}';
  const invalid: Array<[string, Record<string, unknown>]> = [
    ['no observation', { observation: undefined }],
    ['no outcome', { outcome: undefined }],
    ['observation of 9 characters', { observation: s(9), outcome: 'blocked' }],
    ['observation of 4001 characters', { observation: s(4001), outcome: 'blocked' }],
    ['observation not a string', { observation: 1234567890123, outcome: 'blocked' }],
    ['outcome unknown', { outcome: 'failed' }],
    ['category unknown', { category: 'bug' }],
    ['surface unknown', { surface: 'email' }],
    ['goal empty', { goal: '' }],
    ['goal of 501', { goal: s(501) }],
    ['reference empty', { reference: '' }],
    ['reference of 201', { reference: s(201) }],
    ['productVersion empty', { productVersion: '' }],
    ['productVersion of 65', { productVersion: s(65) }],
    ['requestReference empty', { requestReference: '' }],
    ['requestReference of 129', { requestReference: s(129) }],
    ['agent empty', { agent: '' }],
    ['agent of 201', { agent: s(201) }],
    ['invite empty', { invite: '' }],
    ['invite of 65', { invite: s(65) }],
    ['unknown field', { severity: 'high' }],
    ['metadata not an object', { metadata: ['a'] }],
    ['metadata of 21 keys', { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])) }],
    ['metadata key of 65', { metadata: { [s(65)]: 1 } }],
    ['metadata key with a space', { metadata: { 'a b': 1 } }],
    ['metadata key with a slash', { metadata: { 'a/b': 1 } }],
    ['metadata value of 501', { metadata: { k: s(501) } }],
    ['metadata value an object', { metadata: { k: { nested: true } } }],
    ['metadata value an array', { metadata: { k: [1] } }],
    ['environment not an object', { environment: 'linux' }],
    ['environment unknown key', { environment: { shell: 'bash' } }],
    ['environment client empty', { environment: { client: '' } }],
    ['environment client of 101', { environment: { client: s(101) } }],
    ['environment clientVersion of 65', { environment: { clientVersion: s(65) } }],
    ['environment model of 101', { environment: { model: s(101) } }],
    ['environment os of 65', { environment: { os: s(65) } }],
    ['environment locale of 1', { environment: { locale: 'e' } }],
    ['environment locale of 36', { environment: { locale: s(36) } }],
  ];
  test.each(invalid)('%s answers 400', async (_name, fields) => {
    expectErrorBody(await post('open', { ...base(), ...fields }), 400, 'bad_request');
  });

  const valid: Array<[string, Record<string, unknown>]> = [
    ['observation of 10 characters', { observation: s(9) + String(serial % 10) }],
    ['observation of 4000 characters', { observation: s(4000, 'b') }],
    ['observation of 4000 astral characters (bounds count code points)', { observation: emoji.repeat(4000) }],
    ...(['succeeded', 'friction', 'blocked'] as const).map((o): [string, Record<string, unknown>] => [`outcome ${o}`, { outcome: o }]),
    ...['documentation', 'missing_capability', 'error', 'confusing_output', 'access', 'other'].map((c): [string, Record<string, unknown>] => [`category ${c}`, { category: c }]),
    ...['web', 'api', 'mcp', 'cli', 'other'].map((v): [string, Record<string, unknown>] => [`surface ${v}`, { surface: v }]),
    ['goal of 1 and of 500', { goal: 'g' }],
    ['goal of 500', { goal: s(500) }],
    ['reference of 1', { reference: 'r' }],
    ['reference of 200', { reference: s(200) }],
    ['productVersion of 1', { productVersion: '1' }],
    ['productVersion of 64', { productVersion: s(64) }],
    ['requestReference of 1', { requestReference: 'x' }],
    ['requestReference of 128', { requestReference: s(128) }],
    ['agent of 1', { agent: 'A' }],
    ['agent of 200', { agent: s(200) }],
    ['invite of 1 (ignored by an open project)', { invite: 'i' }],
    ['invite of 64', { invite: s(64) }],
    ['metadata empty', { metadata: {} }],
    ['metadata of 20 keys', { metadata: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])) }],
    ['metadata key of 64 with every allowed character', { metadata: { [`Az09_.-${s(57)}`]: 'v' } }],
    ['metadata values of every type', { metadata: { s: s(500), n: -1.5, b: false, z: null } }],
    ['environment full at the upper bounds', { environment: { client: s(100), clientVersion: s(64), model: s(100), os: s(64), locale: s(35) } }],
    ['environment at the lower bounds', { environment: { client: 'c', clientVersion: '1', model: 'm', os: 'o', locale: 'en' } }],
    ['every field at once', { goal: 'g', category: 'other', reference: 'r', surface: 'cli', productVersion: '1', requestReference: 'x', agent: 'A', metadata: { a: 1 }, environment: { os: 'linux' } }],
  ];
  test.each(valid)('%s answers 201', async (_name, fields) => {
    const res = await post('open', { ...base(), ...fields });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'message', 'receivedAt', 'repeat']);
    expect(res.body.repeat).toBe(false);
    expect(res.body.receivedAt).toBe(START.toISOString());
  });

  test('malformed JSON, a non-JSON body and a body over the cap answer 400 / 415 / 413', async () => {
    const url = '/v1/feedback/open/reports';
    expectErrorBody(await request(t.feedbackUrl).post(url).set('content-type', 'application/json').send('{"observation":'), 400, 'invalid_json');
    expectErrorBody(await request(t.feedbackUrl).post(url).set('content-type', 'text/plain').send('hello there'), 415, 'unsupported_media_type');
    const huge = JSON.stringify({ ...base(), metadata: { k: s(2 * 1024 * 1024) } });
    expectErrorBody(await request(t.feedbackUrl).post(url).set('content-type', 'application/json').send(huge), 413, 'payload_too_large');
    expectErrorBody(await request(t.feedbackUrl).get(url), 405, 'method_not_allowed');
  });
});

describe('stored as given', () => {
  test('a script-tag observation and odd characters are stored and returned exactly, never interpreted', async () => {
    const body = {
      observation: '<script>alert("x")</script> & \u0000 \ud800 lone surrogate, "quotes" and \\ backslash',
      outcome: 'blocked',
      metadata: { html: '<b>bold</b>', z: null },
    };
    const res = await post('open', body);
    expect(res.status).toBe(201);
    const row = await t.runtime.db.prisma.feedbackReport.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.body).toEqual(body);
    expect(JSON.stringify(row.body)).toBe(JSON.stringify(body));
  });
});

describe('repeats', () => {
  test('the same content answers 200 with the original receipt, whatever the key order or whitespace', async () => {
    const body = { observation: unique(), outcome: 'friction', metadata: { b: 2, a: 1 }, environment: { os: 'linux', client: 'x' } };
    const first = await post('open', body);
    expect(first.status).toBe(201);
    now += 60_000;
    const reordered = '{ "metadata": {"a":1,  "b":2},\n "outcome":"friction", "environment":{"client":"x","os":"linux"},\t"observation": ' + JSON.stringify(body.observation) + ' }';
    const again = await request(t.feedbackUrl).post('/v1/feedback/open/reports').set('content-type', 'application/json').send(reordered);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, receivedAt: first.body.receivedAt, repeat: true });
    expect(again.body.message).not.toBe(first.body.message);
  });

  test('a difference anywhere is a new report; the same content for another project is its own report', async () => {
    const body = { observation: unique(), outcome: 'friction' };
    const first = await post('open', body);
    const variants = [{ ...body, outcome: 'blocked' }, { ...body, observation: `${body.observation} ` }, { ...body, metadata: {} }, { ...body, agent: 'A' }];
    for (const v of variants) expect((await post('open', v)).status).toBe(201);
    await insertProject(t.runtime.db, { slug: 'open-two' });
    const other = await post('open-two', body);
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(first.body.id);
  });

  test('10 concurrent identical reports yield exactly one new receipt and nine repeats of it', async () => {
    const body = { observation: unique(), outcome: 'succeeded', metadata: { run: 'concurrency' } };
    const results = await Promise.all(Array.from({ length: 10 }, () => post('open', body)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(results.filter((r) => r.body.repeat === false)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const projectId = (await t.runtime.db.prisma.feedbackProject.findUniqueOrThrow({ where: { slug: 'open' } })).id;
    const stored = await t.runtime.db.prisma.feedbackReport.count({ where: { projectId, contentHash: contentHash(body) } });
    expect(stored).toBe(1);
  });
});

describe('project rules', () => {
  test('a project not accepting reports answers 409 project_not_accepting', async () => {
    expectErrorBody(await post('closed', base()), 409, 'project_not_accepting');
    expect((await request(t.feedbackUrl).get('/v1/feedback/closed')).body.accepting).toBe(false);
  });

  test('signed-only: a valid token is accepted until it expires (runtime clock)', async () => {
    const { token } = await issueInvite(t.runtime.db, t.runtime.secrets.invite, signedId, new Date(START.getTime() + 3_600_000));
    expect(token.length).toBeLessThanOrEqual(64);
    const ok = await post('signed', { ...base(), invite: token });
    expect(ok.status).toBe(201);
    now = START.getTime() + 3_600_000;
    expectErrorBody(await post('signed', { ...base(), invite: token }), 403, 'invite_invalid');
  });

  test('signed-only: absent, revoked, other-project, forged and garbage tokens answer 403', async () => {
    const later = new Date(START.getTime() + 86_400_000);
    const secret = t.runtime.secrets.invite;
    expectErrorBody(await post('signed', base()), 403, 'invite_required');

    const revoked = await issueInvite(t.runtime.db, secret, signedId, later);
    expect((await post('signed', { ...base(), invite: revoked.token })).status).toBe(201);
    await t.runtime.db.prisma.feedbackInvite.update({ where: { id: revoked.id }, data: { revokedAt: new Date(now) } });
    expectErrorBody(await post('signed', { ...base(), invite: revoked.token }), 403, 'invite_invalid');

    const other = await issueInvite(t.runtime.db, secret, otherSignedId, later);
    expect((await post('signed-other', { ...base(), invite: other.token })).status).toBe(201);
    expectErrorBody(await post('signed', { ...base(), invite: other.token }), 403, 'invite_invalid');

    // Signed for this project with another secret, or re-signed under this project with a foreign id.
    const forged = new InviteTokens('some-other-secret-0123456789').issue(revoked.id, signedId);
    const unknownId = new InviteTokens(secret).issue('00000000-0000-4000-8000-000000000000', signedId);
    const good = (await issueInvite(t.runtime.db, secret, signedId, later)).token;
    const tampered = `${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`;
    for (const invite of [forged, unknownId, tampered, 'garbage', `${good}.x`, s(64), 'a.b']) {
      expectErrorBody(await post('signed', { ...base(), invite }), 403, 'invite_invalid');
    }
    expect((await post('signed', { ...base(), invite: good })).status).toBe(201);
  });
});

describe('rate limits', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ env: { FEEDBACK_RATE_LIMIT: '3' } });
    await insertProject(limited.runtime.db, { slug: 'busy' });
  });
  afterAll(() => limited.close());

  test('a client over FEEDBACK_RATE_LIMIT reports a minute gets 429 with Retry-After; repeats count too', async () => {
    const send = (body: unknown) => request(limited.feedbackUrl).post('/v1/feedback/busy/reports').send(body as object);
    const body = base();
    expect((await send(body)).status).toBe(201);
    expect((await send(body)).status).toBe(200);
    expect((await send(base())).status).toBe(201);
    const res = await send(base());
    expectErrorBody(res, 429, 'rate_limited');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Reading the card is not limited.
    expect((await request(limited.feedbackUrl).get('/v1/feedback/busy')).status).toBe(200);
  });
});
