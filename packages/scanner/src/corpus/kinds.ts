import { readOpenApiBody } from '../util/openapi-document';
import { parseJsonObject } from '../util/json';

/** The kinds of published file the corpus command serves, each where sites serve it. */
export type CorpusKind = 'llms-txt' | 'robots-txt' | 'agent-card' | 'openapi';

export const CORPUS_KINDS: readonly CorpusKind[] = ['llms-txt', 'robots-txt', 'agent-card', 'openapi'];

/** The checks that judge each kind of file: the verdicts the table prints. */
export const CHECKS_BY_KIND: Record<CorpusKind, readonly string[]> = {
  'llms-txt': ['llms-txt'],
  'robots-txt': ['robots-txt', 'ai-search-bots-allowed', 'ai-training-bot-policy'],
  'agent-card': ['a2a-agent-card'],
  openapi: ['openapi'],
};

const CONTENT_TYPES: Record<CorpusKind, string> = {
  'llms-txt': 'text/plain; charset=utf-8',
  'robots-txt': 'text/plain; charset=utf-8',
  'agent-card': 'application/json',
  openapi: 'application/json',
};

/** Where a site serves the file: OpenAPI at /openapi.json or /openapi.yaml by its content (announced by a Link header). */
export function servedPath(kind: CorpusKind, body: string): string {
  switch (kind) {
    case 'llms-txt':
      return '/llms.txt';
    case 'robots-txt':
      return '/robots.txt';
    case 'agent-card':
      return '/.well-known/agent-card.json';
    case 'openapi':
      return readOpenApiBody(body)?.format === 'yaml' ? '/openapi.yaml' : '/openapi.json';
  }
}

export function defaultContentType(kind: CorpusKind, body: string): string {
  if (kind === 'openapi' && readOpenApiBody(body)?.format === 'yaml') return 'application/yaml';
  return CONTENT_TYPES[kind];
}

/**
 * The kind of a file without a manifest: by its path first (a folder or name saying llms, robots, agent card or
 * OpenAPI/Swagger), then by its content. Null when it is none of them.
 */
export function kindOf(relativePath: string, body: string): CorpusKind | null {
  const path = relativePath.toLowerCase();
  if (/robots/.test(path)) return 'robots-txt';
  if (/llms/.test(path)) return 'llms-txt';
  if (/agent[-_.]?card|(^|\/)agent\.json$|a2a/.test(path)) return 'agent-card';
  if (/openapi|swagger/.test(path)) return 'openapi';
  if (readOpenApiBody(body)?.version) return 'openapi';
  const json = parseJsonObject(body);
  if (json) return Array.isArray(json.skills) || Array.isArray(json.supportedInterfaces) || typeof json.url === 'string' ? 'agent-card' : null;
  if (/^\s*user-agent\s*:/im.test(body)) return 'robots-txt';
  if (/^#\s+\S/m.test(body) || /^\s*[-*]\s*\[[^\]]+\]\([^)]+\)/m.test(body)) return 'llms-txt';
  return null;
}
