// An operation's shape read from the contract at start-up: its inputs (path and query parameters, each with its
// parameter-level description, and the properties of its JSON body, merged into one object schema) and the schema
// of its 2xx JSON answer. Read from the same YAML the HTTP validator enforces, and kept here in http/ because both
// the HTTP reads (direct-reads.ts) and the MCP tools (mcp/) take their schemas from it: one reading of the contract,
// no dependency from http/ on mcp/, and the tools cannot drift from the HTTP contract.
import type { OpenApiReader } from './openapi-resolve';

export type JsonSchema = Record<string, unknown>;
export type ArgumentSource = 'path' | 'query' | 'body';

export interface OperationShape {
  operationId: string;
  method: string;
  path: string;
  /** An object schema of every argument (no $ref left, no OpenAPI-only keyword). */
  input: JsonSchema & { properties: Record<string, JsonSchema>; required: string[] };
  /** Where each argument goes in the HTTP request. */
  sources: Record<string, ArgumentSource>;
  /** Whether the operation takes a body (sent even when no body argument is given, as HTTP clients send `{}`). */
  hasBody: boolean;
  output: JsonSchema;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export function operationShape(reader: OpenApiReader, operationId: string): OperationShape {
  const paths = reader.raw('/paths') as Record<string, Record<string, { operationId?: string }>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      if (item[method]?.operationId !== operationId) continue;
      const pointer = `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}`;
      return shapeOf(reader.resolved(pointer) as Record<string, unknown>, operationId, method, path);
    }
  }
  throw new Error(`${reader.file}: no operation ${operationId}`);
}

function shapeOf(operation: Record<string, unknown>, operationId: string, method: string, path: string): OperationShape {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const sources: Record<string, ArgumentSource> = {};
  const add = (name: string, schema: JsonSchema, source: ArgumentSource, isRequired: boolean): void => {
    if (sources[name]) throw new Error(`${operationId}: argument ${name} is both a ${sources[name]} and a ${source} argument`);
    properties[name] = schema;
    sources[name] = source;
    if (isRequired) required.push(name);
  };
  for (const parameter of (operation.parameters ?? []) as Parameter[]) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const description = parameter.description ?? (parameter.schema?.description as string | undefined);
    add(parameter.name, { ...(parameter.schema ?? {}), ...(description ? { description } : {}) }, parameter.in, parameter.in === 'path' || Boolean(parameter.required));
  }
  const body = (operation.requestBody as { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } | undefined) ?? null;
  const bodySchema = body?.content?.['application/json']?.schema;
  if (bodySchema) {
    if (bodySchema.type !== 'object' || typeof bodySchema.properties !== 'object') throw new Error(`${operationId}: only object bodies can become tool arguments`);
    const bodyRequired = new Set(body?.required ? ((bodySchema.required as string[] | undefined) ?? []) : []);
    for (const [name, schema] of Object.entries(bodySchema.properties as Record<string, JsonSchema>)) add(name, schema, 'body', bodyRequired.has(name));
  }
  return {
    operationId,
    method,
    path,
    input: { type: 'object', additionalProperties: false, properties, required },
    sources,
    hasBody: Boolean(bodySchema),
    output: successSchema(operation, operationId),
  };
}

/** The JSON schema of the 2xx answers; answers with different schemas become an anyOf. */
function successSchema(operation: Record<string, unknown>, operationId: string): JsonSchema {
  const responses = (operation.responses ?? {}) as Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  const schemas: JsonSchema[] = [];
  for (const [status, response] of Object.entries(responses)) {
    const schema = /^2\d\d$/.test(status) ? response.content?.['application/json']?.schema : undefined;
    if (schema && !schemas.some((s) => JSON.stringify(s) === JSON.stringify(schema))) schemas.push(schema);
  }
  if (schemas.length === 0) throw new Error(`${operationId}: no JSON success answer to use as a tool output`);
  if (schemas.length === 1) return schemas[0];
  return { type: 'object', anyOf: schemas };
}
