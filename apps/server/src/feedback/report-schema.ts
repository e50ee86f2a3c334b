// The JSON Schema of a report body, taken from openapi/feedback.yaml at start-up (one source of truth: the card,
// the report-schema endpoint and the request validator all read the same `components.schemas.FeedbackReport`).
// References are resolved into a standalone JSON Schema 2020-12 document; OpenAPI-only keywords are dropped.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';

export type JsonSchema = Record<string, unknown>;

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
// Keywords OpenAPI 3.1 adds to JSON Schema; a plain JSON Schema validator in strict mode refuses them.
const OPENAPI_ONLY = new Set(['example', 'discriminator', 'xml', 'externalDocs']);
const MAX_DEPTH = 32;

/** `components.schemas.<name>` of an OpenAPI document, with every $ref resolved (local and relative files). */
export function loadResolvedSchema(specPath: string, name: string): JsonSchema {
  const documents = new Map<string, unknown>();
  const load = (file: string): unknown => {
    if (!documents.has(file)) documents.set(file, parseYaml(fs.readFileSync(file, 'utf8')));
    return documents.get(file);
  };
  const pointer = (doc: unknown, fragment: string, where: string): unknown => {
    let node = doc;
    for (const raw of fragment.replace(/^\//, '').split('/').filter(Boolean)) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (node === null || typeof node !== 'object' || !(key in node)) throw new Error(`${where}: cannot resolve #${fragment}`);
      node = (node as Record<string, unknown>)[key];
    }
    return node;
  };
  const resolve = (node: unknown, file: string, depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new Error(`${file}: schema references nest deeper than ${MAX_DEPTH} (a cycle?)`);
    if (Array.isArray(node)) return node.map((item) => resolve(item, file, depth + 1));
    if (node === null || typeof node !== 'object') return node;
    const object = node as Record<string, unknown>;
    if (typeof object.$ref === 'string') {
      const [target, fragment = ''] = object.$ref.split('#');
      const targetFile = target ? path.resolve(path.dirname(file), target) : file;
      const resolved = resolve(pointer(load(targetFile), fragment, targetFile), targetFile, depth + 1) as Record<string, unknown>;
      // Siblings of $ref (allowed in 3.1, e.g. a description) refine the target.
      const { $ref: _ref, ...siblings } = object;
      return { ...resolved, ...(resolve(siblings, file, depth + 1) as Record<string, unknown>) };
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      if (!OPENAPI_ONLY.has(key)) out[key] = resolve(value, file, depth + 1);
    }
    return out;
  };
  const file = path.resolve(specPath);
  const schema = pointer(load(file), `/components/schemas/${name}`, file);
  return resolve(schema, file, 0) as JsonSchema;
}

/** The standalone document one project serves: `$id` is its report-schema URL; signed-only projects require `invite`. */
export function reportSchemaDocument(base: JsonSchema, options: { id: string; projectName: string; signedOnly: boolean }): JsonSchema {
  const required = Array.isArray(base.required) ? (base.required as string[]) : [];
  return {
    $schema: DRAFT_2020_12,
    $id: options.id,
    title: `Feedback report for ${options.projectName}`,
    ...base,
    required: options.signedOnly && !required.includes('invite') ? [...required, 'invite'] : required,
  };
}
