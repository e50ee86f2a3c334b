import yaml from 'js-yaml';
import type { FetchedDoc } from '../gather/artifacts';
import { parseJsonObject } from './json';

/** An OpenAPI or Swagger document read from a body, JSON or YAML alike: decided by the content, not the URL. */
export interface OpenApiDocument {
  spec: Record<string, unknown>;
  format: 'json' | 'yaml';
  /** `openapi` or `swagger` as written, when it is a string. */
  version: string | null;
}

/**
 * YAML larger than this is not read: the fetch already stops at its response cap (2 MiB by default), and this keeps a
 * caller that passes a longer body from spending seconds in the parser.
 */
export const MAX_YAML_CHARS = 2 * 1024 * 1024;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * JSON first (the common case, and cheap to reject), then YAML with the JSON schema, as swagger-parser's own reader
 * does, so both see the same values (no timestamps turned into dates). js-yaml gives an alias the same object rather
 * than a copy, so a "billion laughs" document costs what its text costs to read; only a walk that expands it would
 * pay, and the one walk that does (the reference validation) runs in a worker with a time and memory limit.
 */
export function readOpenApiBody(body: string): OpenApiDocument | null {
  const json = parseJsonObject(body);
  if (json) return withVersion(json, 'json');
  if (body.length > MAX_YAML_CHARS || !/^\s*["']?(openapi|swagger)["']?\s*:/m.test(body)) return null;
  try {
    const value = yaml.load(body, { schema: yaml.JSON_SCHEMA, json: true });
    return value && typeof value === 'object' && !Array.isArray(value) ? withVersion(value as Record<string, unknown>, 'yaml') : null;
  } catch {
    return null;
  }
}

function withVersion(spec: Record<string, unknown>, format: 'json' | 'yaml'): OpenApiDocument {
  const version = typeof spec.openapi === 'string' ? spec.openapi : typeof spec.swagger === 'string' ? spec.swagger : null;
  return { spec, format, version };
}

/** Checks read the same document several times (API surface, sign-in, payments): it is read once per fetched doc. */
const readings = new WeakMap<FetchedDoc, OpenApiDocument | null>();

export function openApiDocumentOf(doc: FetchedDoc): OpenApiDocument | null {
  if (readings.has(doc)) return readings.get(doc)!;
  const reading = readOpenApiBody(doc.body);
  readings.set(doc, reading);
  return reading;
}

/** The spec object of a fetched OpenAPI document (JSON or YAML), or null. */
export function openApiSpecOf(doc: FetchedDoc): Record<string, unknown> | null {
  return openApiDocumentOf(doc)?.spec ?? null;
}

/** A document of a version we judge (Swagger 2.0, OpenAPI 3.0 / 3.1) with a paths object. */
export function isJudgedOpenApi(reading: OpenApiDocument | null): reading is OpenApiDocument & { version: string } {
  if (!reading?.version || !/^(3\.[01]|2\.0)/.test(reading.version)) return false;
  const paths = reading.spec.paths;
  return Boolean(paths) && typeof paths === 'object' && !Array.isArray(paths);
}

/** Operations an agent can read off the document: a method object under a path object. */
export function readableOperations(spec: Record<string, unknown>): number {
  const paths = spec.paths;
  if (!paths || typeof paths !== 'object' || Array.isArray(paths)) return 0;
  let count = 0;
  for (const item of Object.values(paths as Record<string, unknown>)) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = (item as Record<string, unknown>)[method];
      if (operation && typeof operation === 'object' && !Array.isArray(operation)) count++;
    }
  }
  return count;
}
