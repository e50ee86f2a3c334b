import { parseLinkHeader } from '../util/link-header';
import { isJudgedOpenApi, openApiDocumentOf, openApiSpecOf } from '../util/openapi-document';
import type { Artifacts, FetchedDoc } from './artifacts';
import { blockOf } from './block-signals';
import type { DocFetcher } from './doc-fetcher';
import { validateOpenApi } from './openapi-validation';

/** JSON first, YAML too: a document is read by its content, whatever its URL or content type says. */
const OPENAPI_ACCEPT = 'application/json,application/openapi+json,application/yaml;q=0.9,application/openapi+yaml;q=0.9,*/*;q=0.5';

/**
 * The OpenAPI documents a website offers: the first two Link service-desc targets of its home page, then /openapi.json
 * and /swagger.json, read as JSON or YAML alike.
 */
export async function fetchOpenApi(fetcher: DocFetcher, a: Artifacts): Promise<void> {
  const at = (path: string): string => new URL(path, a.origin).href;
  const linked = parseLinkHeader(a.home?.headers.link ?? '', a.home?.finalUrl ?? a.targetUrl)
    .filter((l) => l.rel.includes('service-desc'))
    .map((l) => l.href);
  const candidates = [...new Set([...linked.slice(0, 2), at('/openapi.json'), at('/swagger.json')])];
  a.openapi = await Promise.all(candidates.map((u) => fetcher.get(u, { headers: { accept: OPENAPI_ACCEPT } })));
}

/** The reference validator's verdict on the document the openapi check reports, judged off the main thread. */
export async function validateFetchedOpenApi(a: Artifacts): Promise<void> {
  // The check reports the first readable document (checks/define.ts isOk), so that one is validated, and only it.
  const judged = a.openapi.filter((doc) => doc.status !== null && doc.status >= 200 && doc.status < 300 && !doc.error && !blockOf(doc) && isJudgedOpenApi(openApiDocumentOf(doc)));
  a.openapiValidation = await Promise.all(judged.slice(0, 1).map((doc) => validateOpenApi(doc.url, openApiSpecOf(doc)!)));
}

/** A GET operation without path parameters that documents a 402: where the payment probe knocks. */
export function paymentProbeUrl(docs: FetchedDoc[], origin: string): string | null {
  for (const doc of docs) {
    if (doc.status !== 200) continue;
    const spec = openApiSpecOf(doc) as { paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>> } | null;
    if (!spec?.paths || typeof spec.paths !== 'object') continue;
    for (const [path, operations] of Object.entries(spec.paths)) {
      if (path.includes('{')) continue;
      const get = operations?.get;
      if (get?.responses && Object.prototype.hasOwnProperty.call(get.responses, '402')) return new URL(path, origin).href;
    }
  }
  return null;
}
