// fast-check arbitraries derived from the contract's JSON Schemas: values every bound of a schema accepts, and values
// that break one bound at a time. Text covers ASCII punctuation (reserved URL characters included), any Unicode code
// point, and boundary lengths; invalid text adds NUL, lone surrogates and lengths one past the bounds.
import fc from 'fast-check';
import type { JsonSchema } from '../contract-model';

const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;
const PUNCTUATION = [...' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];

/** One code point: ASCII punctuation and letters often, any Unicode scalar sometimes; never U+0000. */
const codePoint = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PUNCTUATION, 'a', 'Z', '0', '9') },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
).filter((c) => c !== '\u0000' && c.length > 0);

function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const lengths = fc.oneof(
    fc.integer({ min: minLength, max: Math.min(maxLength, minLength + 12) }),
    fc.constantFrom(minLength, maxLength),
  );
  return lengths.chain((n) => fc.array(codePoint, { minLength: n, maxLength: n }).map((cps) => cps.join('')));
}

const typesOf = (schema: JsonSchema): string[] => (schema.type === undefined ? [] : [schema.type].flat());

/** Values the schema accepts. `depth` keeps nested objects small. */
export function validValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validValue(s, depth)));
  if (schema.allOf && schema.allOf.length === 1) return validValue(schema.allOf[0], depth);
  const types = typesOf(schema);
  if (types.length > 1) return fc.oneof(...types.map((type) => validValue({ ...schema, type }, depth)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -SAFE_INTEGER;
      const max = typeof schema.maximum === 'number' ? schema.maximum : SAFE_INTEGER;
      return fc.oneof(fc.integer({ min: Math.max(min, -SAFE_INTEGER), max: Math.min(max, SAFE_INTEGER) }), fc.constantFrom(min, max));
    }
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -1e9;
      const max = typeof schema.maximum === 'number' ? schema.maximum : 1e9;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'string':
      return validString(schema);
    case 'array': {
      // The array's own bounds (a subscription's events: 1 to 4), else at most 3 items (1 when nested).
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength = Math.max(minLength, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 3, depth > 1 ? 1 : 3));
      const item = validValue(schema.items ?? {}, depth + 1);
      return schema.uniqueItems === true
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength, maxLength });
    }
    case 'object':
      return validObject(schema, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Math.max(min, 64);
  const fits = (s: string) => [...s].length >= min && [...s].length <= max;
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  if (schema.format === 'email') return fc.emailAddress().filter(fits);
  if (schema.format === 'uuid') return fc.uuid().filter(fits);
  if (schema.format === 'uri') return fc.webUrl().filter(fits);
  return text(min, max);
}

function validObject(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const known = fc.record(
    Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, validValue(s, depth + 1)])),
    { requiredKeys: [...required].filter((k) => k in properties) },
  );
  const extra = schema.additionalProperties;
  if (!extra || extra === true || Object.keys(properties).length > 0) return known as fc.Arbitrary<Record<string, unknown>>;
  const names = (schema.propertyNames as JsonSchema | undefined) ?? { type: 'string', minLength: 1, maxLength: 16 };
  const maxKeys = typeof schema.maxProperties === 'number' ? Math.min(schema.maxProperties, 5) : 5;
  return fc.dictionary(validString(names), validValue(extra, depth + 1), { maxKeys });
}

/**
 * Values that break the schema in one way (a wrong type, a length or range one past its bound, a pattern, enum or
 * const miss), or null when the schema accepts every value (no type, no bound: `{}`). Never an arbitrary that filters
 * everything away: fast-check retries a filter forever, which hung a CI pass in generation (an untyped body property).
 */
export function invalidValue(schema: JsonSchema): fc.Arbitrary<unknown> | null {
  const options: Array<fc.Arbitrary<unknown>> = [];
  const types = typesOf(schema);
  if (schema.const !== undefined) options.push(fc.constantFrom<unknown>('not the constant', 0, null).filter((v) => v !== schema.const));
  if (schema.enum) options.push(fc.string({ maxLength: 12 }).filter((s) => !schema.enum!.includes(s)));
  if (types.includes('string') && !schema.enum) {
    if (typeof schema.maxLength === 'number') options.push(text(schema.maxLength + 1, schema.maxLength + 4));
    if (typeof schema.minLength === 'number' && schema.minLength > 0) options.push(text(0, schema.minLength - 1));
    if (typeof schema.pattern === 'string') {
      const pattern = new RegExp(schema.pattern);
      // NUL is in no pattern of ours (the edge refuses it) and keeps this from looping on a pattern most text meets.
      options.push(text(1, 20).map((s) => (pattern.test(s) ? `${s}\u0000` : s)));
    }
  }
  if (types.includes('integer') || types.includes('number')) {
    if (typeof schema.maximum === 'number') options.push(fc.constant(schema.maximum + 1));
    if (typeof schema.minimum === 'number') options.push(fc.constant(schema.minimum - 1));
    if (types.includes('integer')) options.push(fc.constantFrom(1.5, -0.25));
  }
  const wrongTypes = ['text', 7, true, null, [], {}].filter((v) => !acceptsType(types, v));
  if (types.length > 0 && wrongTypes.length > 0) options.push(fc.constantFrom<unknown>(...wrongTypes));
  return options.length > 0 ? fc.oneof(...options) : null;
}

function acceptsType(types: string[], value: unknown): boolean {
  if (value === null) return types.includes('null');
  if (Array.isArray(value)) return types.includes('array');
  if (typeof value === 'number') return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
  return types.includes(typeof value);
}

/** Raw (already encoded) parameter spellings that no contract value has, or that only an attacker sends. */
export const hostileRaw = fc.constantFrom(
  '%00', 'a%00b', '%ED%A0%80', '%E0%A4%A', '%', '%zz', '%C0%AF', '%FF', '..', '%2e%2e', '%2F', 'a%2Fb', '%5C', '%0D%0A',
  '%EF%BF%BF', '%F0%9F%92%A9', '0x10', '1e1', '%2B5', '%2050', '-0', '9'.repeat(400), 'a'.repeat(3000),
);

/** How a value is written into a URL: mostly as our client does, sometimes as a form or a browser would. */
export function encodeParameter(value: string, style: 'component' | 'form' | 'raw'): string | null {
  try {
    if (style === 'form') return new URLSearchParams({ v: value }).toString().slice(2);
    if (style === 'raw') return /[\s#&%/?]/.test(value) || /[^\x21-\x7e]/.test(value) ? encodeURIComponent(value) : value;
    return encodeURIComponent(value);
  } catch {
    return null; // a lone surrogate has no UTF-8 spelling
  }
}
