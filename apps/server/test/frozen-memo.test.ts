// The per-entry memory of the answer path (http/frozen-memo.ts): the text is exactly JSON.stringify's, the verdict
// exactly the whole schema's, and a frozen entry is serialized and validated once, however many pages list it.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { bodyBytes, memoizedValidator, stringifyBody } from '../src/http/frozen-memo';
import { LiveIndex } from '../src/leaderboard/live-index';

const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
};

test('stringifyBody writes exactly what JSON.stringify writes, frozen elements or not, first time and again', () => {
  const element = fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.date({ noInvalidDate: true }), fc.dictionary(fc.string(), fc.jsonValue()).map(deepFreeze));
  const body = fc.oneof(
    fc.jsonValue(),
    fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.array(element))),
    // Keys JSON.stringify orders or treats apart: integer-like keys first, __proto__ as a plain member.
    fc
      .array(fc.tuple(fc.constantFrom('__proto__', '0', '7', '12', 'constructor', 'toJSON', 'a', 'b'), fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.array(element), fc.date({ noInvalidDate: true }))))
      .map((pairs) => {
        const o: Record<string, unknown> = {};
        for (const [k, v] of pairs) Object.defineProperty(o, k, { value: v, enumerable: true, configurable: true, writable: true });
        return o;
      }),
  );
  fc.assert(
    fc.property(body, (b) => {
      expect(stringifyBody(b)).toBe(JSON.stringify(b));
      expect(stringifyBody(b)).toBe(JSON.stringify(b));
    }),
    { numRuns: 500, seed: 42 },
  );
});

const ajv = new Ajv2020({ strict: false });
addFormats(ajv, { mode: 'full' });
const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'total'],
  properties: {
    items: {
      type: 'array',
      maxItems: 3,
      items: { type: 'object', required: ['n', 'url'], additionalProperties: false, properties: { n: { type: 'integer', minimum: 0 }, url: { type: 'string', format: 'uri' } } },
    },
    total: { type: 'integer' },
  },
};

test('the memoized validator gives the whole schema\'s verdict on random bodies, frozen elements included', () => {
  const full = ajv.compile(schema);
  const memo = memoizedValidator((s) => ajv.compile(s), schema);
  const item = fc.record({ n: fc.integer({ min: -2, max: 5 }), url: fc.constantFrom('https://a.example/', 'not a uri') }, { requiredKeys: [] });
  const pool = [{ n: 1, url: 'https://a.example/' }, { n: -1, url: 'https://a.example/' }, { n: 2, url: 'nope' }].map(deepFreeze);
  const body = fc.record({
    items: fc.array(fc.oneof(item, fc.constantFrom(...pool), fc.constant('x')), { maxLength: 4 }),
    total: fc.oneof(fc.integer(), fc.constant('7')),
  }, { requiredKeys: [] });
  fc.assert(fc.property(body, (b) => expect(memo(b)).toBe(full(b))), { numRuns: 1000, seed: 7 });
});

test('a frozen element is validated once; an element that is not frozen, every time', () => {
  let calls = 0;
  const memo = memoizedValidator((s) => {
    const validate = ajv.compile(s);
    if (s === schema) return validate;
    const counting = ((value: unknown) => {
      if ((s as { required?: string[] }).required?.includes('n')) calls++;
      return validate(value);
    }) as typeof validate;
    return counting;
  }, schema);
  const frozen = deepFreeze({ n: 1, url: 'https://a.example/' });
  const open = { n: 1, url: 'https://a.example/' };
  for (let i = 0; i < 5; i++) expect(memo({ items: [frozen, open], total: 2 })).toBe(true);
  expect(calls).toBe(1 + 5);
});

test('so are the frozen elements of an array that may be null (a company read\'s checks)', () => {
  const nullable = { ...schema, properties: { ...schema.properties, items: { ...schema.properties.items, type: ['array', 'null'] } } };
  let calls = 0;
  const memo = memoizedValidator((s) => {
    const validate = ajv.compile(s);
    if ((s as { required?: string[] }).required?.includes('n')) {
      return ((value: unknown) => {
        calls++;
        return validate(value);
      }) as typeof validate;
    }
    return validate;
  }, nullable);
  const frozen = deepFreeze({ n: 1, url: 'https://a.example/' });
  for (let i = 0; i < 5; i++) expect(memo({ items: [frozen], total: 1 })).toBe(true);
  expect(memo({ items: null, total: 0 })).toBe(true);
  expect(memo({ items: [deepFreeze({ n: -1, url: 'https://a.example/' })], total: 1 })).toBe(false);
  expect(calls).toBe(1 + 1);
  const full = ajv.compile(nullable);
  for (const body of [{ items: null, total: 0 }, { items: 'x', total: 0 }, { items: [frozen, 'x'], total: 2 }, { items: [frozen, frozen, frozen, frozen], total: 4 }]) expect(memo(body)).toBe(full(body));
});

test("the live index's entries are frozen all the way down (what the memory relies on)", () => {
  const at = new Date('2026-11-20T00:00:00.000Z');
  const index = LiveIndex.load(
    [{ id: 'a', name: 'A', website: 'https://a.example/', domain: 'a.example', source: 'curated', score: 50, grade: 'D', scannedAt: at, category: { id: 'c', name: 'C', slug: 'c' }, summary: null, latestScanId: null }],
    { weekAgo: new Map(), firstRecordedAt: new Map(), recent: new Map() },
    at,
  );
  const json = index.entry(index.byDomain('a.example')!, 'all');
  expect(Object.isFrozen(json)).toBe(true);
  expect(Object.isFrozen(json.company)).toBe(true);
  expect(Object.isFrozen(json.company.category)).toBe(true);
  // Answered again unchanged, it is the same object (so its text and verdict are remembered).
  expect(index.entry(index.byDomain('a.example')!, 'all')).toBe(json);
});

// A new entry is made when only its rank moved; its company object (the largest part) is shared with the last one.
const entrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items'],
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object', required: ['rank', 'company'], additionalProperties: false,
        properties: {
          rank: { type: 'integer', minimum: 1 },
          company: { type: 'object', required: ['domain'], additionalProperties: false, properties: { domain: { type: 'string', minLength: 3 }, url: { type: 'string', format: 'uri' } } },
        },
      },
    },
  },
};

test('entries sharing a frozen company: the verdict is the whole schema\'s, and the company is validated once', () => {
  const full = ajv.compile(entrySchema);
  let companyCalls = 0;
  const memo = memoizedValidator((s) => {
    const validate = ajv.compile(s);
    if (!(s as { required?: string[] }).required?.includes('domain')) return validate;
    return ((value: unknown) => {
      companyCalls++;
      return validate(value);
    }) as typeof validate;
  }, entrySchema);
  const companies = [{ domain: 'a.example', url: 'https://a.example/' }, { domain: 'ab' }, { domain: 'b.example', url: 'nope' }, { domain: 'c.example', extra: 1 }].map(deepFreeze);
  const entry = fc.oneof(
    fc.record({ rank: fc.integer({ min: -1, max: 3 }), company: fc.constantFrom(...companies) }).map(deepFreeze),
    fc.record({ rank: fc.integer({ min: 1, max: 3 }), company: fc.record({ domain: fc.constantFrom('x', 'x.example') }) }),
  );
  fc.assert(fc.property(fc.record({ items: fc.array(entry, { maxLength: 5 }) }), (b) => expect(memo(b)).toBe(full(b))), { numRuns: 1000, seed: 9 });

  companyCalls = 0;
  const shared = deepFreeze({ domain: 'fresh.example' });
  for (let rank = 1; rank <= 5; rank++) expect(memo({ items: [deepFreeze({ rank, company: shared })] })).toBe(true);
  expect(companyCalls).toBe(1);
});

test('an entry with a new rank reuses its company\'s text and still writes exactly JSON.stringify\'s', () => {
  const company = deepFreeze({ domain: 'a.example', name: 'A "quoted" \u2028 name', tags: ['x'], nothing: undefined });
  for (let rank = 1; rank <= 3; rank++) {
    const body = { items: [deepFreeze({ rank, company, note: undefined, at: new Date(0) })] };
    expect(stringifyBody(body)).toBe(JSON.stringify(body));
  }
});

test('a frozen answer kept whole is written from the same bytes and checked once; an answer that is not frozen, afresh each time', () => {
  let envelopes = 0;
  const memo = memoizedValidator((s) => {
    const validate = ajv.compile(s);
    if ((s as { required?: string[] }).required?.includes('total')) {
      return ((value: unknown) => {
        envelopes++;
        return validate(value);
      }) as typeof validate;
    }
    return validate;
  }, schema);
  const kept = deepFreeze({ items: [{ n: 1, url: 'https://a.example/' }], total: 1 });
  expect(memo(kept)).toBe(true);
  expect(memo(kept)).toBe(true);
  expect(envelopes).toBe(1);
  const open = { items: [{ n: 1, url: 'https://a.example/' }], total: 1 };
  expect(memo(open)).toBe(true);
  expect(memo(open)).toBe(true);
  expect(envelopes).toBe(3);
  // A frozen answer that failed is checked again (it is never answered, so nothing is kept for it).
  const wrong = deepFreeze({ items: [], total: 'x' });
  expect(memo(wrong)).toBe(false);
  expect(memo(wrong)).toBe(false);
  expect(envelopes).toBe(5);

  const first = bodyBytes(kept);
  expect(first.toString()).toBe(JSON.stringify(kept));
  expect(bodyBytes(kept)).toBe(first);
  const fresh = bodyBytes(open);
  expect(fresh.toString()).toBe(JSON.stringify(open));
  expect(bodyBytes(open)).not.toBe(fresh);
});
