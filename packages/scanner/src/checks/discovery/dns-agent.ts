import type { Artifacts } from '../../gather/artifacts';
import { ALL_KINDS, defineCheck, excerpt, outcome, undecided } from '../define';
import { isProductSite, productDocs } from '../signals';
import type { CheckOutcome } from '../types';

/** AID v2.1 §2.1: full keys and the single-letter aliases clients MUST recognise. */
const ALIASES: Record<string, string> = { v: 'version', u: 'uri', p: 'proto', a: 'auth', s: 'desc', d: 'docs', e: 'dep', k: 'pka', i: 'kid' };
/** §7.2: protocol tokens and the URI schemes each allows. */
const SCHEMES: Record<string, RegExp> = {
  mcp: /^https:\/\//i,
  a2a: /^https:\/\//i,
  openapi: /^https:\/\//i,
  grpc: /^https:\/\//i,
  graphql: /^https:\/\//i,
  ucp: /^https:\/\//i,
  websocket: /^wss:\/\//i,
  local: /^(docker|npx|pip):/i,
  zeroconf: /^zeroconf:/i,
};

export interface AidRecord {
  version: 'aid1' | 'aid2';
  uri: string;
  proto: string;
  fields: Record<string, string>;
}

/** One TXT answer read as an AID record: the record, or why it is not a valid one (null for a TXT that is no AID record at all). */
export function readAidRecord(text: string): { record: AidRecord } | { problem: string } | null {
  const fields: Record<string, string> = {};
  const seen = new Set<string>();
  for (const part of text.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const raw = part.slice(0, at).trim().toLowerCase();
    const value = part.slice(at + 1).trim();
    const key = ALIASES[raw] ?? raw;
    // §2.1: a record MUST NOT carry both a key and its alias.
    if (seen.has(key)) return { problem: `it gives ${key} twice (a key and its alias)` };
    seen.add(key);
    fields[key] = value;
  }
  const version = fields.version?.toLowerCase();
  if (!version || !/^aid\d+$/.test(version)) return null;
  if (version !== 'aid1' && version !== 'aid2') return { problem: `its version ${version} is not one AID defines (aid2, or the legacy aid1)` };
  const missing = ['uri', 'proto'].filter((k) => !fields[k]);
  if (missing.length > 0) return { problem: `it lacks ${missing.map((k) => `${k} (${k[0]})`).join(' and ')}, which AID requires` };
  if (version === 'aid2' && fields.kid !== undefined) return { problem: 'an aid2 record must not carry kid (i) (AID v2.1 §2.1)' };
  const proto = fields.proto.toLowerCase();
  const scheme = SCHEMES[proto];
  if (scheme && !scheme.test(fields.uri)) return { problem: `its ${proto} endpoint ${fields.uri.slice(0, 100)} does not use the scheme AID allows for ${proto}` };
  return { record: { version, uri: fields.uri, proto, fields } };
}

export const dnsAgentDiscovery = defineCheck({
  id: 'dns-agent-discovery',
  name: 'DNS names the agent endpoint (_agent TXT)',
  layer: 'discovery',
  tier: 'emerging',
  appliesTo: ALL_KINDS,
  description:
    'A TXT record at _agent.<host> (Agent Identity and Discovery, AID v2.1 §2: v=aid2; u=<endpoint>; p=<protocol>) tells a client that knows only the domain where the agent is and which protocol to speak (mcp, a2a, openapi...). The exact host is asked, never a parent; exactly one valid record must answer. Looked up through the host\'s own resolver. DNS-AID\'s SVCB records under _agents are not looked up (Node\'s resolver cannot ask for SVCB).',
  fix: 'Publish one TXT record at _agent.<your host>, e.g. _agent.example.com. 300 IN TXT "v=aid2;u=https://example.com/mcp;p=mcp;a=oauth2_code" (AID v2.1 §2.2).',
  evaluate(a) {
    const lookup = a.agentDns;
    if (!lookup) return outcome('not_applicable', 'No DNS lookup was made for this scan');
    if (lookup.skipped) return outcome('not_applicable', `Not looked up: ${lookup.skipped}`, { url: dnsUrl(lookup.name) });
    if (lookup.error !== null || lookup.records === null) return outcome('couldnt_check', `Could not look up TXT ${lookup.name}: ${lookup.error ?? 'no answer'}`, { url: dnsUrl(lookup.name), status: null });
    const read = lookup.records.map((text) => ({ text, read: readAidRecord(text) }));
    const aid = read.filter((r) => r.read !== null);
    if (aid.length === 0) return noRecord(a, lookup.name, lookup.records.length);
    const valid = aid.filter((r): r is { text: string; read: { record: AidRecord } } => 'record' in r.read!);
    const where = { url: dnsUrl(lookup.name), excerpt: excerpt(sanitize(aid[0].text), 240) };
    if (valid.length === 0) {
      const first = aid[0].read as { problem: string };
      return outcome('failed', `The AID record at ${lookup.name} is not valid: ${first.problem}`, where);
    }
    // §2.3 steps 5-7: the highest version wins; two valid records of it are ambiguous and a client MUST fail.
    const version = valid.some((r) => r.read.record.version === 'aid2') ? 'aid2' : 'aid1';
    const chosen = valid.filter((r) => r.read.record.version === version);
    if (chosen.length > 1) return outcome('failed', `${lookup.name} has ${chosen.length} valid ${version} records; AID clients fail on that ambiguity (AID v2.1 §2.3 step 7)`, where);
    const { record } = chosen[0].read;
    const shown = { url: dnsUrl(lookup.name), excerpt: excerpt(sanitize(chosen[0].text), 240) };
    const summary = `${lookup.name} names a ${record.proto} endpoint at ${record.uri.slice(0, 200)} (${record.version})`;
    const deprecated = record.fields.dep && Date.parse(record.fields.dep) < Date.now() ? ` It was deprecated on ${record.fields.dep.slice(0, 40)} (dep), and clients stop using it.` : '';
    if (record.version === 'aid1') return outcome('warning', `${summary}; aid1 is AID's legacy format, aid2 the current one.${deprecated}`, shown);
    if (deprecated) return outcome('warning', `${summary}.${deprecated}`, shown);
    return outcome('passed', summary, shown);
  },
});

/** No AID record: a product without one misses an opportunity; a site with nothing to connect to owes none. */
function noRecord(a: Artifacts, name: string, others: number): CheckOutcome {
  if (a.kind === 'website' && !isProductSite(a)) {
    return undecided(productDocs(a), 'whether the site is a product') ?? outcome('not_applicable', 'No product, API or agent surface was found, so no agent endpoint is expected in DNS');
  }
  const txt = others > 0 ? `${others} TXT record(s), none an AID record (v=aid2)` : 'no TXT record';
  return outcome('failed', `${name} has ${txt}`, { url: dnsUrl(name) });
}

/** RFC 4501 dns: URI of the question asked (the evidence's URL). */
function dnsUrl(name: string): string {
  return `dns:${name}?type=TXT`;
}

/** A TXT string is the publisher's text: control and bidirectional-override characters are dropped before we show it. */
function sanitize(text: string): string {
  return text.replace(/[\u0000-\u001F\u007F\u202A-\u202E\u2066-\u2069]/g, '');
}
