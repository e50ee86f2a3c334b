// The card's reportSchema says exactly what the endpoint accepts: for random bodies (biased to the edges of every
// bound), a JSON Schema 2020-12 validator given the served schema accepts a body iff POST answers 201 or 200.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import request from 'supertest';
import { insertProject } from './feedback-fixtures';
import { startTestServer, type TestServer } from './support/harness';

let t: TestServer;
let validate: (body: unknown) => boolean;

beforeAll(async () => {
  t = await startTestServer({ env: { FEEDBACK_RATE_LIMIT: '0' } });
  await insertProject(t.runtime.db, { slug: 'prop' });
  const served = (await request(t.feedbackUrl).get('/v1/feedback/prop/report-schema')).body;
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: false });
  addFormats(ajv);
  const compiled = ajv.compile(served);
  validate = (body) => compiled(body) as boolean;
});
afterAll(() => t.close());

const unit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'Z', '0', ' ', '_') },
  { weight: 1, arbitrary: fc.constantFrom('é', '\u{1F600}', '<', '"', '\\', '\u0000', '\n', '/') },
);
/** Strings whose length (in code points) sits at or around the bounds, or anywhere short. */
const str = (min: number, max: number) =>
  fc
    .oneof(
      fc.integer({ min: Math.max(0, min - 1), max: min + 1 }),
      fc.integer({ min: Math.max(0, max - 1), max: max + 1 }),
      fc.integer({ min: 0, max: Math.min(max + 1, 40) }),
    )
    .chain((n) => fc.string({ unit, minLength: n, maxLength: n }));
const junk = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.constant({}));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.oneof({ weight: 8, arbitrary: arb as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: junk }), { nil: undefined, freq: 3 });
const oneOf = (values: string[]) => fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });

const metadataKey = fc.oneof(
  { weight: 5, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.-]{1,66}$/) },
  { weight: 1, arbitrary: fc.string({ unit, maxLength: 4 }) },
);
const metadataValue = fc.oneof(
  str(0, 500),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant({ nested: 1 }),
  fc.constant(['x']),
);
const metadata = fc.dictionary(metadataKey, metadataValue, { maxKeys: 22 });
const environment = fc.oneof(
  { weight: 5, arbitrary: fc.record({ client: str(1, 100), clientVersion: str(1, 64), model: str(1, 100), os: str(1, 64), locale: str(2, 35) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.record({ client: fc.constant('c'), shell: fc.constant('bash') }, { requiredKeys: ['shell'] }) },
);

const noisyBody = fc
  .record(
    {
      observation: maybe(str(10, 4000)),
      goal: maybe(str(1, 500)),
      outcome: maybe(oneOf(['succeeded', 'friction', 'blocked'])),
      category: maybe(oneOf(['documentation', 'missing_capability', 'error', 'confusing_output', 'access', 'other'])),
      reference: maybe(str(1, 200)),
      surface: maybe(oneOf(['web', 'api', 'mcp', 'cli', 'other'])),
      productVersion: maybe(str(1, 64)),
      requestReference: maybe(str(1, 128)),
      agent: maybe(str(1, 200)),
      invite: maybe(str(1, 64)),
      metadata: maybe(metadata),
      environment: maybe(environment),
      extra: fc.option(fc.constantFrom('severity', 'Observation', 'metadata2'), { nil: undefined, freq: 8 }),
    },
    { requiredKeys: [] },
  )
  .map(({ extra, ...fields }) => {
    const out: Record<string, unknown> = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    if (extra) out[extra] = 'x';
    return out;
  });

// Bodies inside every bound (edges included), so that the accepted side is explored as well as the refused one.
const inside = (min: number, max: number) =>
  fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max: Math.min(max, min + 30) })).chain((n) => fc.string({ unit, minLength: n, maxLength: n }));
const validBody = fc.record(
  {
    observation: inside(10, 4000),
    outcome: fc.constantFrom('succeeded', 'friction', 'blocked'),
    goal: inside(1, 500),
    category: fc.constantFrom('documentation', 'missing_capability', 'error', 'confusing_output', 'access', 'other'),
    reference: inside(1, 200),
    surface: fc.constantFrom('web', 'api', 'mcp', 'cli', 'other'),
    productVersion: inside(1, 64),
    requestReference: inside(1, 128),
    agent: inside(1, 200),
    invite: inside(1, 64),
    metadata: fc.dictionary(fc.stringMatching(/^[A-Za-z0-9_.-]{1,64}$/), fc.oneof(inside(0, 500), fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 20 }),
    environment: fc.record({ client: inside(1, 100), clientVersion: inside(1, 64), model: inside(1, 100), os: inside(1, 64), locale: inside(2, 35) }, { requiredKeys: [] }),
  },
  { requiredKeys: ['observation', 'outcome'] },
);
/** A valid body with one field replaced by a value from the noisy generator. */
const oneChange = fc.tuple(validBody, noisyBody).chain(([valid, noisy]) =>
  fc.constantFrom(...Object.keys(noisy), 'observation', 'outcome').map((key) => {
    const out: Record<string, unknown> = { ...valid };
    if (key in noisy) out[key] = noisy[key];
    else delete out[key];
    return out;
  }),
);
const body = fc.oneof(validBody as fc.Arbitrary<Record<string, unknown>>, noisyBody, oneChange);

test('the served schema accepts a random body iff the endpoint does', async () => {
  const seen = { accepted: 0, refused: 0 };
  await fc.assert(
    fc.asyncProperty(body, async (candidate) => {
      const wire = JSON.parse(JSON.stringify(candidate)) as unknown;
      const res = await request(t.feedbackUrl).post('/v1/feedback/prop/reports').send(wire as object);
      expect([200, 201, 400]).toContain(res.status);
      const endpointAccepts = res.status === 200 || res.status === 201;
      if (endpointAccepts) seen.accepted++;
      else seen.refused++;
      expect({ schemaAccepts: validate(wire), body: wire }).toEqual({ schemaAccepts: endpointAccepts, body: wire });
    }),
    { numRuns: 400, interruptAfterTimeLimit: 60_000 },
  );
  // The generator must explore both sides, or the property says little.
  expect(seen.accepted).toBeGreaterThan(40);
  expect(seen.refused).toBeGreaterThan(40);
});
