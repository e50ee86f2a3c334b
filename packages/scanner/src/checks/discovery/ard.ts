import { parseJsonObject } from '../../util/json';
import { defineCheck, docEvidence, outcome, unreachable, WEBSITE } from '../define';
import { isProductSite } from '../signals';

const VIA: Record<string, string> = {
  agentmap: 'the robots.txt Agentmap line',
  link: 'a rel="ard" link',
  'well-known': '/.well-known/ard.json',
  'legacy-link': 'a rel="ai-catalog" link (the predecessor relation)',
  'legacy-well-known': '/.well-known/ai-catalog.json (the predecessor path)',
};

/** ARD v0.91 §4.2: every entry carries identifier, displayName, type and exactly one of url or data. */
function entryProblems(entries: unknown[]): string[] {
  const problems: string[] = [];
  entries.slice(0, 50).forEach((entry, i) => {
    const e = entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
    const missing = ['identifier', 'displayName', 'type'].filter((k) => typeof e[k] !== 'string');
    if (missing.length > 0) problems.push(`entry ${i + 1} lacks ${missing.join(', ')}`);
    if ((e.url !== undefined) === (e.data !== undefined)) problems.push(`entry ${i + 1} needs exactly one of url or data`);
  });
  return problems;
}

export const ardManifest = defineCheck({
  id: 'ard-manifest',
  name: 'ARD manifest lists the agentic resources',
  layer: 'discovery',
  tier: 'emerging',
  appliesTo: WEBSITE,
  description:
    'Agentic Resource Discovery (ARD v0.91, §5.1): a manifest with an entries array at /.well-known/ard.json, or named by an "Agentmap:" line in robots.txt or a rel="ard" link; the predecessor AI Catalog names (/.well-known/ai-catalog.json, rel="ai-catalog") are read too. Each entry carries identifier, displayName, type and url or data (§4.2).',
  fix: 'Serve /.well-known/ard.json: {"entries":[{"identifier":"urn:air:you.com:server:main","displayName":"Your MCP server","type":"application/mcp-server-card+json","url":"https://you.com/.well-known/mcp/server-card.json"}]}.',
  evaluate(a) {
    const found = a.ard;
    if (!found) {
      if (!isProductSite(a)) return outcome('not_applicable', 'No product surface was found, so an ARD manifest is not expected');
      const answered = a.ardTried.find((d) => d.status !== null);
      if (!answered) return unreachable(a.ardTried[0] ?? null, 'the ARD manifest')!;
      return outcome('failed', `No ARD manifest (tried ${a.ardTried.map((d) => `${new URL(d.url).pathname} → ${d.status ?? 'no answer'}`).join(', ')})`, docEvidence(answered));
    }
    const json = parseJsonObject(found.doc.body)!;
    const entries = json.entries;
    if (!Array.isArray(entries)) return outcome('warning', `A manifest was found through ${VIA[found.via]}, but it has no entries array`, docEvidence(found.doc, 'body'));
    const problems = entryProblems(entries);
    if (problems.length > 0) return outcome('warning', `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} via ${VIA[found.via]}; ${problems.slice(0, 3).join('; ')}`, docEvidence(found.doc, 'body'));
    if (found.via.startsWith('legacy')) return outcome('warning', `${entries.length} valid entr${entries.length === 1 ? 'y' : 'ies'}, but only under ${VIA[found.via]}; ARD consumers need not read it`, docEvidence(found.doc, 'body'));
    return outcome('passed', `${entries.length} valid entr${entries.length === 1 ? 'y' : 'ies'} found through ${VIA[found.via]}`, docEvidence(found.doc, 'body'));
  },
});
