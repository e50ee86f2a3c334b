// Each host serves its own contract: the self-contained YAML and JSON documents and the Redoc reference page that
// the contract package builds offline (packages/contract/scripts/build-documents.js). Read once at start-up.
import * as fs from 'node:fs';
import { documentPaths, type HostName } from '@arl/contract/node';
import { parseDocument } from 'yaml';

// The page is one file with Redoc inlined: it may run its own inline script and styles and nothing from elsewhere.
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface ServedDocuments {
  yaml: string;
  json: Record<string, unknown>;
  html: string;
}

export function loadServedDocuments(host: HostName): ServedDocuments {
  const paths = documentPaths(host);
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      throw new Error(`${file} is missing: build the contract first (npm run build)`);
    }
  };
  // The served copy names the host it is served from (a relative server URL, valid behind any proxy), not the
  // source's local default.
  const yaml = parseDocument(read(paths.yaml));
  yaml.set('servers', SERVED_SERVERS);
  const json = JSON.parse(read(paths.json)) as Record<string, unknown>;
  json.servers = SERVED_SERVERS;
  return { yaml: yaml.toString({ lineWidth: 0 }), json, html: read(paths.html) };
}

const SERVED_SERVERS = [{ url: '/', description: 'This host (the one serving this document)' }];

/** The three handlers of a host, whatever their operationIds are called in its document. */
export function documentHandlers(host: HostName) {
  const docs = loadServedDocuments(host);
  return {
    yaml: async () => ({ status: 200 as const, text: docs.yaml, type: 'application/yaml' as const }),
    json: async () => ({ status: 200 as const, body: docs.json as never }),
    docs: async () => ({ status: 200 as const, html: docs.html, headers: { 'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY } }),
  };
}
