// Work done once per immutable list entry instead of once per response. The live index's entries are frozen
// (leaderboard/live-index.ts) and shared by every page that lists them until the company's values change (a new
// entry object then), so their JSON text and their verdict against the contract cannot change while they live: a page of 100 entries costs 100 lookups, not 100
// serializations and 100 schema validations. Anything not frozen is done in full every time.
import type { ValidateFunction } from 'ajv';

const texts = new WeakMap<object, string>();

function isFrozenObject(value: unknown): value is object {
  return value !== null && typeof value === 'object' && Object.isFrozen(value);
}

/** Exactly `JSON.stringify(body)`, with the text of frozen array elements at the top level remembered. */
export function stringifyBody(body: unknown): string {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || typeof (body as { toJSON?: unknown }).toJSON === 'function') {
    return JSON.stringify(body);
  }
  const parts: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    // What JSON.stringify leaves out of an object.
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    parts.push(`${JSON.stringify(key)}:${Array.isArray(value) ? arrayText(value) : JSON.stringify(value)}`);
  }
  return `{${parts.join(',')}}`;
}

function arrayText(list: unknown[]): string {
  return `[${list.map(elementText).join(',')}]`;
}

function elementText(item: unknown): string {
  if (!isFrozenObject(item)) return JSON.stringify(item) ?? 'null'; // JSON.stringify writes null for undefined in arrays
  let text = texts.get(item);
  if (text === undefined) {
    text = JSON.stringify(item);
    texts.set(item, text);
  }
  return text;
}

type Schema = Record<string, unknown>;

/** Keywords that make an array's verdict depend on its elements together, not one by one. */
const JOINT_KEYWORDS = ['uniqueItems', 'contains', 'prefixItems', 'unevaluatedItems', 'minContains', 'maxContains'];

/**
 * A validator equal to `compile(schema)` for an object schema, except that the elements of its array properties
 * are validated one by one and a frozen element that passed once is not validated again.
 */
export type MemoizedValidator = (value: unknown) => boolean;

export function memoizedValidator(compile: (schema: Schema) => ValidateFunction, schema: Schema): MemoizedValidator {
  const properties = schema.properties as Record<string, Schema> | undefined;
  const split = Object.entries(properties ?? {}).filter(
    ([, s]) => s.type === 'array' && typeof s.items === 'object' && s.items !== null && !JOINT_KEYWORDS.some((k) => k in s),
  );
  if (schema.type !== 'object' || split.length === 0) return compile(schema);
  // The envelope keeps every rule of the array (its type, length bounds) but not the elements' schema.
  const envelope = compile({
    ...schema,
    properties: { ...properties, ...Object.fromEntries(split.map(([name, s]) => [name, { ...s, items: true }])) },
  });
  const elements = split.map(([name, s]) => ({ name, validate: compile(s.items as Schema), passed: new WeakSet<object>() }));
  const validate = (value: unknown): boolean => {
    if (!envelope(value)) return false;
    for (const { name, validate, passed } of elements) {
      const list = (value as Record<string, unknown>)[name];
      if (!Array.isArray(list)) continue; // an optional property left out: the envelope approved that
      for (const item of list) {
        if (isFrozenObject(item) && passed.has(item)) continue;
        if (!validate(item)) return false;
        if (isFrozenObject(item)) passed.add(item);
      }
    }
    return true;
  };
  return validate;
}
