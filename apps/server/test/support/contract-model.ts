// Both OpenAPI documents, dereferenced, as a list of operations tests can walk: method, path template, parameters,
// request body schema, and every listed response with its media types. The fuzz suite derives its requests from it,
// so an operation added to a YAML document is covered without touching the tests.
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { specPaths } from '@arl/contract/node';

export type JsonSchema = Record<string, unknown> & {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
};

export interface ContractParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export interface ContractResponse {
  status: number;
  /** Media type -> schema (absent when the response has no content). */
  content: Record<string, JsonSchema | undefined>;
}

export interface ContractOperation {
  host: 'leaderboard' | 'feedback';
  operationId: string;
  method: string;
  /** e.g. /v1/feedback/{slug}/reports */
  path: string;
  parameters: ContractParameter[];
  /** `form`: application/x-www-form-urlencoded (a page form) instead of JSON. */
  body?: { required: boolean; schema: JsonSchema; form?: boolean };
  responses: ContractResponse[];
  statuses: number[];
  /** Whether a concrete path (no query) belongs to this template. */
  matches(concretePath: string): boolean;
}

export interface ContractDocument {
  description: string;
  operations: ContractOperation[];
  components: { responses: Record<string, unknown>; schemas: Record<string, JsonSchema> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface RawOperation {
  operationId: string;
  parameters?: Array<ContractParameter & { required?: boolean }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

async function loadOne(host: 'leaderboard' | 'feedback'): Promise<ContractDocument> {
  const doc = (await $RefParser.dereference(specPaths[host])) as unknown as {
    info: { description?: string };
    paths: Record<string, Record<string, RawOperation> & { parameters?: ContractParameter[] }>;
    components?: { responses?: Record<string, unknown>; schemas?: Record<string, JsonSchema> };
  };
  const operations: ContractOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as RawOperation | undefined;
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => ({
        name: p.name, in: p.in, required: p.required === true || p.in === 'path', schema: p.schema ?? {},
      }));
      const json = op.requestBody?.content?.['application/json'];
      const form = op.requestBody?.content?.['application/x-www-form-urlencoded'];
      const responses = Object.entries(op.responses).map(([status, r]) => ({
        status: Number(status),
        content: Object.fromEntries(Object.entries(r.content ?? {}).map(([type, media]) => [type, media.schema])),
      }));
      const pattern = new RegExp(`^${path.split(/\{[^}]+\}/).map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+')}$`);
      operations.push({
        host, operationId: op.operationId, method, path, parameters,
        body: json
          ? { required: op.requestBody?.required === true, schema: json.schema }
          : form ? { required: op.requestBody?.required === true, schema: form.schema, form: true } : undefined,
        responses,
        statuses: responses.map((r) => r.status),
        matches: (concrete) => pattern.test(concrete),
      });
    }
  }
  return {
    description: doc.info.description ?? '',
    operations,
    components: { responses: doc.components?.responses ?? {}, schemas: doc.components?.schemas ?? {} },
  };
}

export async function loadContracts(): Promise<Record<'leaderboard' | 'feedback', ContractDocument>> {
  const [leaderboard, feedback] = await Promise.all([loadOne('leaderboard'), loadOne('feedback')]);
  return { leaderboard, feedback };
}
