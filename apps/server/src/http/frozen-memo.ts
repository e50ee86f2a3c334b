// Work done once per immutable list entry instead of once per response. The live index's entries are frozen
// (leaderboard/live-index.ts) and shared by every page that lists them until the company's values change (a new
// entry object then), so their JSON text and their verdict against the contract cannot change while they live: a page of 100 entries costs 100 lookups, not 100
// serializations and 100 schema validations. Anything not frozen is done in full every time.
import type { ValidateFunction } from 'ajv';

const texts = new WeakMap<object, string>();
const bodies = new WeakMap<object, Buffer>();

function isFrozenObject(value: unknown): value is object {
  return value !== null && typeof value === 'object' && Object.isFrozen(value);
}

/**
 * Exactly `JSON.stringify(body)`, with the text of frozen array elements at the top level remembered. The members
 * between two arrays are written by one JSON.stringify of an object holding just them (a company read's eighteen
 * scalars before its layers and checks: one call, not eighteen).
 */
export function stringifyBody(body: unknown): string {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || typeof (body as { toJSON?: unknown }).toJSON === 'function') {
    return JSON.stringify(body);
  }
  let text = '';
  let run: Record<string, unknown> | null = null;
  const flush = (): void => {
    if (run === null) return;
    // JSON.stringify leaves out what it leaves out of any object (undefined, functions, symbols): '{}' adds nothing.
    const members = JSON.stringify(run).slice(1, -1);
    if (members) text += text ? `,${members}` : members;
    run = null;
  };
  for (const key of Object.keys(body)) {
    const value = (body as Record<string, unknown>)[key];
    if (!Array.isArray(value)) {
      run ??= {};
      // Assigning `__proto__` would set the prototype, not a member.
      if (key === '__proto__') Object.defineProperty(run, key, { value, enumerable: true });
      else run[key] = value;
      continue;
    }
    flush();
    const member = `${JSON.stringify(key)}:${arrayText(value)}`;
    text += text ? `,${member}` : member;
  }
  flush();
  return `{${text}}`;
}

/**
 * The bytes of `stringifyBody(body)`, kept per frozen body: an answer kept whole while its data holds (a population
 * statistics answer, 77 KB at 1,000 companies, is the same frozen object until a scan ends) is then written by
 * every read without being joined and copied again. The same rule as the element memo: a frozen answer is frozen all
 * the way down (deepFreeze), so its bytes cannot change while it lives.
 */
export function bodyBytes(body: unknown): Buffer {
  if (!isFrozenObject(body)) return Buffer.from(stringifyBody(body));
  let bytes = bodies.get(body);
  if (bytes === undefined) bodies.set(body, (bytes = Buffer.from(stringifyBody(body))));
  return bytes;
}

function arrayText(list: unknown[]): string {
  return `[${list.map(elementText).join(',')}]`;
}

function elementText(item: unknown): string {
  if (!isFrozenObject(item)) return JSON.stringify(item) ?? 'null'; // JSON.stringify writes null for undefined in arrays
  return frozenText(item);
}

function frozenText(item: object): string {
  let text = texts.get(item);
  if (text === undefined) {
    text = composedText(item);
    texts.set(item, text);
  }
  return text;
}

/**
 * A frozen object's text from its members, where a frozen plain object among them is written by its own remembered
 * text: the live index makes a new entry when only its rank moved (every company a change passes shifts by one), and
 * that entry's company, the largest part, keeps its object and so its text.
 */
function composedText(item: object): string {
  if (Array.isArray(item) || typeof (item as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(item);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(item)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    const plain = isFrozenObject(value) && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
    parts.push(`${JSON.stringify(key)}:${plain ? frozenText(value) : JSON.stringify(value)}`);
  }
  return `{${parts.join(',')}}`;
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
  // Arrays that may also be null (`type: [array, 'null']`) too: a company read's layers and checks.
  const split = Object.entries(properties ?? {}).filter(
    ([, s]) => [s.type].flat().includes('array') && typeof s.items === 'object' && s.items !== null && !JOINT_KEYWORDS.some((k) => k in s),
  );
  if (schema.type !== 'object' || split.length === 0) return compile(schema);
  // The envelope keeps every rule of the array (its type, length bounds) but not the elements' schema.
  const envelope = compile({
    ...schema,
    properties: { ...properties, ...Object.fromEntries(split.map(([name, s]) => [name, { ...s, items: true }])) },
  });
  const elements = split.map(([name, s]) => ({ name, validate: oncePerFrozen(elementValidator(compile, s.items as Schema)) }));
  // A frozen answer kept whole (see bodyBytes) is checked once, not once per read.
  const validate = oncePerFrozen((value: unknown): boolean => {
    if (!envelope(value)) return false;
    for (const { name, validate } of elements) {
      const list = (value as Record<string, unknown>)[name];
      if (!Array.isArray(list)) continue; // an optional property left out: the envelope approved that
      if (!list.every(validate)) return false;
    }
    return true;
  });
  return validate;
}

/** `validate`, except that a frozen value that passed once passes again without being validated. */
function oncePerFrozen(validate: (value: unknown) => boolean): (value: unknown) => boolean {
  const passed = new WeakSet<object>();
  return (value) => {
    if (isFrozenObject(value) && passed.has(value)) return true;
    if (!validate(value)) return false;
    if (isFrozenObject(value)) passed.add(value);
    return true;
  };
}

/** Keywords that make an object's verdict depend on its properties together, not one by one. */
const JOINT_OBJECT_KEYWORDS = ['unevaluatedProperties', 'dependentSchemas', 'dependentRequired', 'if', 'allOf', 'anyOf', 'oneOf', 'not'];

/**
 * An array element's validator: `compile(schema)`, except that a frozen object-valued property that passed once (a
 * list entry's company, shared by the entries the company gets as its rank moves) is not validated again.
 */
function elementValidator(compile: (schema: Schema) => ValidateFunction, schema: Schema): (value: unknown) => boolean {
  const properties = schema.properties as Record<string, Schema> | undefined;
  const split = Object.entries(properties ?? {}).filter(
    ([, s]) => s.type === 'object' && !JOINT_OBJECT_KEYWORDS.some((k) => k in s),
  );
  if (schema.type !== 'object' || split.length === 0 || JOINT_OBJECT_KEYWORDS.some((k) => k in schema)) return compile(schema);
  const envelope = compile({ ...schema, properties: { ...properties, ...Object.fromEntries(split.map(([name]) => [name, true])) } });
  const parts = split.map(([name, s]) => ({ name, validate: oncePerFrozen(compile(s)) }));
  return (value: unknown): boolean => {
    if (!envelope(value)) return false;
    for (const { name, validate } of parts) {
      const member = (value as Record<string, unknown>)[name];
      if (member !== undefined && !validate(member)) return false; // left out: the envelope approved that
    }
    return true;
  };
}
