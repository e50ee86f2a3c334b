// The services a UCP business profile (/.well-known/ucp) declares, and the transport each is reached by. Commerce
// platforms run an MCP server for every shop and announce it only here (a census of ~95,000 hosts, 2026-09 and
// 2026-10: every sampled Wix and Shopify store, none through a server card), so a scanner that reads only server
// cards never finds it. Two shapes are in use, both read (fixtures of ours reproduce each:
// test/fixtures/ucp-profiles.ts):
// - 2026-01-11: `ucp.services` keyed by service name, each an object holding its transports as keys
//   (`rest`, `mcp`, `a2a`, `embedded`), each `{schema, endpoint}` (the UCP specification's discovery examples and
//   its MCP bindings);
// - 2026-04-08: each service an array of bindings `{version, transport, endpoint, schema?}`.
// The profile may also stand without its `ucp` wrapper. Endpoints are resolved against the profile's URL; only
// http(s) ones are kept, and only a bounded number.
import { parseJson } from '../util/json';
import { httpUrl } from '../util/url';
import type { FetchedDoc } from './artifacts';

export type UcpTransport = 'mcp' | 'rest' | 'a2a' | 'embedded';

export interface UcpBinding {
  /** The service's name, e.g. `dev.ucp.shopping`. */
  service: string;
  transport: UcpTransport;
  endpoint: string;
}

const TRANSPORTS: readonly UcpTransport[] = ['mcp', 'rest', 'a2a', 'embedded'];
/** More bindings than any real profile declares: a hostile one cannot make a scan follow hundreds. */
const MAX_BINDINGS = 12;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const transportOf = (v: unknown): UcpTransport | null => {
  const name = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return (TRANSPORTS as readonly string[]).includes(name) ? (name as UcpTransport) : null;
};

/** Every (service, transport, endpoint) a profile declares, in its order, without duplicates; [] for anything else. */
export function ucpBindings(doc: FetchedDoc | null | undefined): UcpBinding[] {
  if (!doc || doc.status !== 200) return [];
  const json = parseJson(doc.body);
  if (!isObject(json)) return [];
  const profile = isObject(json.ucp) ? json.ucp : json;
  if (!isObject(profile.services)) return [];
  const base = doc.finalUrl ?? doc.url;
  const found: UcpBinding[] = [];
  const seen = new Set<string>();
  const add = (service: string, transport: UcpTransport | null, raw: unknown) => {
    const endpoint = transport ? httpUrl(raw, base) : null;
    if (!transport || !endpoint || found.length >= MAX_BINDINGS) return;
    const key = `${transport} ${endpoint}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ service, transport, endpoint });
  };
  for (const [service, declared] of Object.entries(profile.services)) {
    if (Array.isArray(declared)) {
      for (const binding of declared) if (isObject(binding)) add(service, transportOf(binding.transport), binding.endpoint);
    } else if (isObject(declared)) {
      for (const transport of TRANSPORTS) {
        const binding = declared[transport];
        if (isObject(binding)) add(service, transport, binding.endpoint ?? binding.url);
      }
    }
  }
  return found;
}
