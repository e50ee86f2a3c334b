// Verified, not declared (issue 39): an OpenAPI document promises an API at its server. The scan asks it one thing
// that changes nothing: the first GET operation that takes no required parameter and has no templated path, at the
// document's first server (`servers[0].url`, relative to the document, its variables at their defaults; Swagger 2.0's
// scheme, host and basePath; else the document's origin). Nothing is asked when the document has no such operation.
// The request goes through the scan's fetcher like every other (the fetch policy, sizes, time, the request budget).
import type { FetchedDoc } from './artifacts';
import type { DocFetcher } from './doc-fetcher';
import { isJudgedOpenApi, openApiDocumentOf } from '../util/openapi-document';
import { httpUrl } from '../util/url';

export interface OpenApiProbe {
  /** The document that declared the operation. */
  docUrl: string;
  /** "GET /status", as the document names it. */
  operation: string;
  /** What the operation answered (status null: no answer; `error` says why). */
  doc: FetchedDoc;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const requiredParameter = (list: unknown): boolean => Array.isArray(list) && list.some((p) => isObject(p) && p.required === true);

/** The base URL a document's operations live under. */
export function openApiBase(spec: Record<string, unknown>, docUrl: string): string | null {
  const servers = Array.isArray(spec.servers) ? spec.servers : [];
  const first = servers.find(isObject);
  if (first && typeof first.url === 'string') {
    const variables = isObject(first.variables) ? first.variables : {};
    const url = first.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const variable = variables[name];
      return isObject(variable) && typeof variable.default === 'string' ? variable.default : '';
    });
    return httpUrl(url || '/', docUrl);
  }
  if (typeof spec.swagger === 'string' && typeof spec.host === 'string') {
    const scheme = Array.isArray(spec.schemes) && spec.schemes.includes('https') ? 'https' : Array.isArray(spec.schemes) && typeof spec.schemes[0] === 'string' ? spec.schemes[0] : new URL(docUrl).protocol.slice(0, -1);
    return httpUrl(`${scheme}://${spec.host}${typeof spec.basePath === 'string' ? spec.basePath : ''}`, docUrl);
  }
  return httpUrl('/', docUrl);
}

/** The first GET operation a client can call without knowing anything: no path template, no required parameter. */
export function parameterlessGet(spec: Record<string, unknown>): string | null {
  if (!isObject(spec.paths)) return null;
  for (const [path, item] of Object.entries(spec.paths)) {
    if (!path.startsWith('/') || path.includes('{') || !isObject(item) || !isObject(item.get)) continue;
    if (requiredParameter(item.parameters) || requiredParameter(item.get.parameters)) continue;
    return path;
  }
  return null;
}

/** Asks the first valid document's parameterless GET operation; null when there is none to ask. */
export async function probeOpenApiOperation(fetcher: DocFetcher, documents: FetchedDoc[]): Promise<OpenApiProbe | null> {
  const doc = documents.find((d) => d.status === 200 && isJudgedOpenApi(openApiDocumentOf(d)));
  const spec = doc ? openApiDocumentOf(doc)?.spec : null;
  if (!doc || !spec) return null;
  const docUrl = doc.finalUrl ?? doc.url;
  const path = parameterlessGet(spec);
  const base = openApiBase(spec, docUrl);
  if (!path || !base) return null;
  const url = httpUrl(`${base.replace(/\/$/, '')}${path}`, docUrl);
  if (!url) return null;
  return { docUrl, operation: `GET ${path}`, doc: await fetcher.get(url, { headers: { accept: 'application/json' } }) };
}
