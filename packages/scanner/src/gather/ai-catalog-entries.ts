import { parseJsonObject } from '../util/json';
import { httpUrl } from '../util/url';
import type { Artifacts, CatalogArtifact } from './artifacts';
import type { DocFetcher } from './doc-fetcher';

/** AI Catalog entry types (IANA media types) whose artifacts other checks judge. */
export const MCP_SERVER_CARD_TYPE = 'application/mcp-server-card+json';
export const A2A_AGENT_CARD_TYPES = ['application/a2a-agent-card+json', 'application/agent-card+json'];
const MAX_FOLLOWED = 3;

/**
 * The AI Catalog's entries of the given types, each artifact fetched from its url or read from its embedded data
 * (exactly one of the two, AI Catalog §Catalog Entry), at most 3 per kind so a long catalog costs little.
 */
export async function followCatalogEntries(fetcher: DocFetcher, a: Artifacts, types: string[]): Promise<CatalogArtifact[]> {
  if (!a.ard) return [];
  const catalog = parseJsonObject(a.ard.doc.body);
  const base = a.ard.doc.finalUrl ?? a.ard.doc.url;
  const entries = Array.isArray(catalog?.entries) ? (catalog.entries as unknown[]) : [];
  const wanted = entries
    .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
    .filter((e) => types.includes(String(e.type ?? e.mediaType ?? '').toLowerCase().split(';')[0].trim()))
    .slice(0, MAX_FOLLOWED);
  return Promise.all(
    wanted.map(async (entry, i): Promise<CatalogArtifact> => {
      const identifier = typeof entry.identifier === 'string' ? entry.identifier : `entry ${i + 1}`;
      if (entry.data !== undefined && typeof entry.data === 'object' && entry.data !== null) {
        const body = JSON.stringify(entry.data);
        return { identifier, doc: { url: `${base}#${encodeURIComponent(identifier)}`, finalUrl: null, status: 200, headers: {}, contentType: 'application/json', body, error: null } };
      }
      const url = httpUrl(entry.url, base);
      if (!url) return { identifier, doc: { url: base, finalUrl: null, status: null, headers: {}, contentType: null, body: '', error: { code: 'invalid_url', message: `entry ${identifier} has no usable url` } } };
      return { identifier, doc: await fetcher.get(url, { headers: { accept: `${types[0]},application/json;q=0.9,*/*;q=0.5` } }) };
    }),
  );
}
