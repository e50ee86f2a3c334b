// Checks a tool's arguments against its input schema (the operation's own parameters and body, see
// http/operation-shapes.ts) with the same JSON Schema rules the HTTP validator applies: formats, bounds, unknown
// arguments refused, defaults filled in. A refusal is the HTTP 400 of the same mistake, naming the argument.
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { badRequest } from '../http/errors';
import { predicateOf } from '../http/validation-messages';
import type { JsonSchema } from '../http/operation-shapes';

const ajv = new Ajv2020({ allErrors: false, useDefaults: true, strict: false, coerceTypes: false });
addFormats(ajv);

export type ArgumentCheck = (args: Record<string, unknown>) => Record<string, unknown>;

export function argumentCheck(toolName: string, schema: JsonSchema): ArgumentCheck {
  const validate: ValidateFunction = ajv.compile(schema);
  return (args) => {
    // A copy: defaults are written into it, never into the caller's object.
    const copy = structuredClone(args ?? {});
    if (!validate(copy)) throw badRequest(`Invalid arguments for ${toolName}: ${describe(validate.errors?.[0])}`);
    return copy;
  };
}

function describe(error: ErrorObject | undefined): string {
  if (!error) return 'the arguments do not match the input schema.';
  const at = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = error.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  if (error.keyword === 'required') return `${at ? `${at}.` : ''}${params.missingProperty} is required.`;
  if (error.keyword === 'additionalProperties') return `${at ? `${at}.` : ''}${params.additionalProperty} is not an argument of this tool.`;
  if (error.keyword === 'enum') return `${at || 'the argument'} must be one of ${(params.allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}.`;
  // Our words, as over HTTP (http/validation-messages.ts): never Ajv's text with a schema pattern in it.
  return `${at || 'the arguments'} ${predicateOf(error.keyword, error.message ?? '')}.`;
}
