// Refuses, at the edge, parameter values no database column can hold as sent: U+0000 (PostgreSQL text cannot
// store or compare it) and lone UTF-16 surrogates (not Unicode text; they would become U+FFFD, altered). One rule
// for every path and query parameter of every operation, run after the contract validator, so no lookup ever
// sends such a value to the database and no operation can answer 500 because of one. JSON bodies are not
// concerned: their strings are stored as JSON, where both survive escaped and are returned exactly as sent.
import type { NextFunction, Request, Response } from 'express';
import { badRequest, type ApiError } from './errors';

type Found = { where: string; problem: 'nul' | 'surrogate' };

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a text holds something no database column can store as sent (see above). */
export function hasUnstorableText(text: string): boolean {
  return problemOf(text) !== null;
}

function problemOf(text: string): Found['problem'] | null {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'surrogate';
  return null;
}

function find(value: unknown, where: string, depth = 0): Found | null {
  if (typeof value === 'string') {
    const problem = problemOf(value);
    return problem ? { where, problem } : null;
  }
  if (depth > 64 || value === null || typeof value !== 'object') return null;
  const entries: Array<readonly [string, unknown]> = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, inner] of entries) {
    const path = where ? `${where}.${key}` : key;
    const keyProblem = problemOf(key);
    if (keyProblem) return { where: `${where} (one of its keys)`, problem: keyProblem };
    const found = find(inner, path, depth + 1);
    if (found) return found;
  }
  return null;
}

function firstOf(values: Record<string, unknown> | undefined, kind: string): Found | null {
  for (const [name, value] of Object.entries(values ?? {})) {
    const found = find(value, name);
    if (found) return { ...found, where: `${kind} ${found.where}` };
  }
  return null;
}

/**
 * The 400 for the first path or query value no column can hold, or null. Shared by the HTTP edge and the MCP
 * tools, whose arguments become the same path and query parameters (tool.ts).
 */
export function unstorableParameters(path: Record<string, unknown> | undefined, query: Record<string, unknown> | undefined, kind = 'parameter'): ApiError | null {
  const found = firstOf(path, `path ${kind}`) ?? firstOf(query, `query ${kind}`);
  if (!found) return null;
  return badRequest(
    found.problem === 'nul'
      ? `The ${found.where} contains a NUL character (U+0000), which cannot be stored.`
      : `The ${found.where} is not well-formed Unicode (it has a lone surrogate).`,
  );
}

export function refuseUnstorableInput(req: Request, _res: Response, next: NextFunction): void {
  const params = (req as Request & { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams;
  next(unstorableParameters(params, req.query as Record<string, unknown>) ?? undefined);
}
