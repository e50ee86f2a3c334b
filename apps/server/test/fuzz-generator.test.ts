// The contract fuzz suite's own generator must not crash on the values it generates (issue 21, row 6: `npm run
// fuzz` died with URIError in 2 of 3 seeds when a cut fell inside a surrogate pair).
import fc from 'fast-check';
import { invalidValue } from './support/fuzz/arbitraries';
import { hostileRequest, nulSuffixed } from './support/fuzz/requests';

test('a value is cut by code points before its NUL is appended, never inside a surrogate pair', () => {
  expect(nulSuffixed('a😀😀😀😀😀😀😀😀')).toBe(`${encodeURIComponent('a😀😀😀😀😀😀😀')}%00`);
  expect(nulSuffixed('x😀')).toBe(`x${encodeURIComponent('😀')}%00`);
  expect(nulSuffixed('')).toBe('%00');
});

// A schema that accepts every value has no invalid one. The old generator answered an arbitrary of `undefined` that a
// caller then filtered away, and fast-check retries a filter forever: a CI pass hung 15 minutes in generation on an
// untyped body property (`{}`), at 4.5 GB and 100 % CPU.
test('a schema that accepts everything has no invalid value (null), and one with bounds always has one', () => {
  expect(invalidValue({})).toBeNull();
  expect(invalidValue({ description: 'any JSON' })).toBeNull();
  for (const schema of [{ const: 'dispute' }, { type: 'string', maxLength: 3 }, { type: 'string', pattern: '.*' }, { type: ['string', 'integer', 'number', 'boolean', 'null', 'array', 'object'], minimum: 0 }] as const) {
    const arbitrary = invalidValue(schema as never);
    expect(arbitrary).not.toBeNull();
    expect(fc.sample(arbitrary!, { numRuns: 50, seed: 7 })).toHaveLength(50);
  }
});

test('a hostile body for an operation with an untyped property is generated (it breaks the others)', () => {
  const op = {
    host: 'feedback', operationId: 'untyped', method: 'post', path: '/x', parameters: [], statuses: [201], responses: [],
    body: { schema: { type: 'object', additionalProperties: false, required: ['context'], properties: { context: {}, note: { type: 'string', maxLength: 5 } } } },
    matches: () => true,
  };
  const requests = fc.sample(hostileRequest(op as never, {}), { numRuns: 200, seed: 11 });
  expect(requests).toHaveLength(200);
  expect(requests.some((r) => r.body?.includes('"note"'))).toBe(true);
});
