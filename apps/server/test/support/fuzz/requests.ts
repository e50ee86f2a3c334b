// Requests derived from one operation of the contract: contract-valid ones (every parameter and body field within
// its bounds) and hostile ones (one bound broken, raw spellings no client should send, unknown parameters, bodies
// that are not JSON or not of the declared type, bodies on reads).
import fc from 'fast-check';
import type { ContractOperation, ContractParameter, JsonSchema } from '../contract-model';
import { encodeParameter, hostileRaw, invalidValue, validValue } from './arbitraries';

export interface FuzzRequest {
  method: string;
  /** Path and query, already encoded. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Every value was inside the contract (so the request must be accepted, not refused as malformed). */
  valid: boolean;
  /** What was generated, for the counterexample. */
  note: string;
}

/** Known values of path parameters (fixtures), so valid requests also reach existing resources. */
export type KnownValues = Record<string, string[]>;

const encodings = fc.constantFrom<'component' | 'form' | 'raw'>('component', 'component', 'form', 'raw');

/** Text a parameter may carry by the edge rules (no NUL, well-formed Unicode). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const storable = (v: unknown) => typeof v !== 'string' || (!v.includes('\u0000') && !LONE_SURROGATE.test(v));

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function validParameterValue(p: ContractParameter, known: KnownValues): fc.Arbitrary<string> {
  const generated = validValue(p.schema).filter(storable).map(asText);
  const fixtures = known[p.name] ?? [];
  return fixtures.length > 0 ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...fixtures) }, { weight: 1, arbitrary: generated }) : generated;
}

function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => values[name]);
}

const jsonTypes = ['application/json', 'application/json; charset=utf-8'];

export function validRequest(op: ContractOperation, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const headerParams = op.parameters.filter((p) => p.in === 'header');
  const path = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, fc.tuple(validParameterValue(p, known), fc.constantFrom<'component' | 'raw'>('component', 'raw'))])));
  const query = fc.record(
    Object.fromEntries(queryParams.map((p) => [p.name, fc.tuple(validParameterValue(p, known), encodings)])),
    { requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name) },
  );
  const headers = fc.record(Object.fromEntries(headerParams.map((p) => [p.name, validParameterValue(p, known).filter((v) => /^[\x20-\x7e]*$/.test(v))])), { requiredKeys: [] });
  const form = op.body?.form === true;
  const body = op.body
    ? validValue(op.body.schema).map((v) => (form ? new URLSearchParams(v as Record<string, string>).toString() : JSON.stringify(v)))
    : fc.constant(undefined);
  const head = fc.boolean();
  const types = form ? ['application/x-www-form-urlencoded'] : jsonTypes;
  return fc.tuple(path, query, headers, body, fc.constantFrom(...types), head).map(([p, q, h, b, type, asHead]) => {
    const concrete = Object.fromEntries(Object.entries(p).map(([name, [value, style]]) => [name, encodeParameter(value, style) ?? encodeURIComponent('x')]));
    const pairs = Object.entries(q).map(([name, [value, style]]) => `${name}=${encodeParameter(value, style)}`);
    const method = op.method === 'get' && asHead ? 'head' : op.method;
    return {
      method,
      url: fillPath(op.path, concrete) + (pairs.length > 0 ? `?${pairs.join('&')}` : ''),
      headers: { ...(h as Record<string, string>), ...(b !== undefined ? { 'content-type': type } : {}) },
      body: b,
      valid: true,
      note: `valid ${JSON.stringify({ p, q, h, b })}`,
    };
  });
}

type Breakage =
  | { kind: 'path'; name: string; raw: string }
  | { kind: 'query'; name: string; raw: string }
  | { kind: 'unknown-query'; raw: string }
  | { kind: 'duplicate-query'; name: string }
  | { kind: 'body'; text: string; type: string | null }
  | { kind: 'read-body'; text: string; type: string; encoding: string }
  | { kind: 'header'; name: string; value: string };

/**
 * The first 8 characters of a valid value, percent-encoded, then an encoded U+0000. Cut by code points: cutting by
 * UTF-16 units could split a surrogate pair, which encodeURIComponent refuses (URIError, a crash of the generator).
 */
export function nulSuffixed(value: string): string {
  return `${encodeURIComponent([...value].slice(0, 8).join(''))}%00`;
}

export function hostileRequest(op: ContractOperation, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const rawOf = (p: ContractParameter) =>
    fc.oneof(
      // A schema that accepts every value has no invalid one: a lone surrogate is hostile for every schema.
      { weight: 2, arbitrary: (invalidValue(p.schema) ?? fc.constant('\uD800')).map((v) => encodeParameter(asText(v), 'component') ?? '%ED%A0%80') },
      { weight: 2, arbitrary: hostileRaw },
      // U+0000 inside an otherwise valid value: what no column can hold.
      { weight: 1, arbitrary: validParameterValue(p, known).map(nulSuffixed) },
    );
  const breakages: Array<fc.Arbitrary<Breakage>> = [];
  for (const p of pathParams) breakages.push(rawOf(p).map((raw) => ({ kind: 'path' as const, name: p.name, raw })));
  for (const p of queryParams) {
    breakages.push(rawOf(p).map((raw) => ({ kind: 'query' as const, name: p.name, raw })));
    breakages.push(fc.constant({ kind: 'duplicate-query' as const, name: p.name }));
  }
  breakages.push(fc.constantFrom('x=1', 'x', '=', '&&', 'a[b]=1', '__proto__=1', 'constructor[prototype][x]=1').map((raw) => ({ kind: 'unknown-query' as const, raw })));
  if (op.body) {
    const badBody = fc.oneof(
      invalidBodyValue(op.body.schema).map((v) => JSON.stringify(v)),
      fc.constantFrom('', '{', 'null', '[]', '"text"', '{"a":1}{', '\u0000', '{"__proto__":{"x":1}}', `{"x":${'['.repeat(2000)}}`),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    );
    breakages.push(fc.tuple(badBody, fc.constantFrom<string | null>('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin-9', null)).map(([text, type]) => ({ kind: 'body' as const, text, type })));
  } else {
    breakages.push(fc.tuple(fc.constantFrom('{', '{"a":1}', 'hello'), fc.constantFrom('application/json', 'text/plain'), fc.constantFrom('identity', 'gzip', 'x-unknown')).map(([text, type, encoding]) => ({ kind: 'read-body' as const, text, type, encoding })));
  }
  breakages.push(fc.tuple(fc.constantFrom('x-request-id', 'accept', 'last-event-id', 'content-length-ish'), fc.constantFrom('', ' ', 'a'.repeat(300), 'a b', '../../', 'text/x-nothing', '*/*', '-1', '1e3')).map(([name, value]) => ({ kind: 'header' as const, name, value })));

  return fc.tuple(validRequest(op, known), fc.oneof(...breakages)).map(([base, broken]) => {
    const request: FuzzRequest = { ...base, headers: { ...base.headers }, valid: false, note: `${base.note} broken ${JSON.stringify(broken)}` };
    const [pathPart, queryPart = ''] = base.url.split('?');
    let pairs = queryPart ? queryPart.split('&') : [];
    let path = pathPart;
    switch (broken.kind) {
      case 'path': {
        const template = op.path.split('/');
        const actual = pathPart.split('/');
        path = template.map((seg, i) => (seg === `{${broken.name}}` ? broken.raw : actual[i])).join('/');
        break;
      }
      case 'query':
        pairs = [...pairs.filter((pair) => !pair.startsWith(`${broken.name}=`)), `${broken.name}=${broken.raw}`];
        break;
      case 'duplicate-query':
        pairs = [...pairs, `${broken.name}=1`, `${broken.name}=2`];
        break;
      case 'unknown-query':
        pairs = [...pairs, broken.raw];
        break;
      case 'body':
        request.body = broken.text;
        if (broken.type) request.headers['content-type'] = broken.type;
        else delete request.headers['content-type'];
        break;
      case 'read-body':
        request.method = op.method;
        request.body = broken.text;
        request.headers['content-type'] = broken.type;
        request.headers['content-encoding'] = broken.encoding;
        break;
      case 'header':
        if (broken.name !== 'content-length-ish') request.headers[broken.name] = broken.value;
        break;
    }
    request.url = path + (pairs.length > 0 ? `?${pairs.join('&')}` : '');
    return request;
  });
}

/** A body that breaks the schema: a required field missing, an unknown field, or one field of a wrong value. */
function invalidBodyValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return invalidValue(schema) ?? fc.constant('not a body of this operation');
  return validValue(schema).chain((base) => {
    const object = base as Record<string, unknown>;
    // Only properties that have an invalid value (an untyped property accepts anything).
    const options: Array<fc.Arbitrary<unknown>> = properties.flatMap(([name, s]) => {
      const invalid = invalidValue(s);
      return invalid ? [invalid.map((v) => ({ ...object, [name]: v }))] : [];
    });
    if (schema.additionalProperties === false) options.push(fc.constant({ ...object, unexpectedField: 1 }));
    for (const name of schema.required ?? []) {
      const { [name]: _dropped, ...rest } = object;
      options.push(fc.constant(rest));
    }
    return fc.oneof(...options);
  });
}
