import { parseJsonObject } from '../../util/json';
import { defineCheck, docEvidence, outcome, undecided, unreachable, WEBSITE } from '../define';
import { isProductSite, productDocs } from '../signals';

const VIA: Record<string, string> = {
  link: 'a rel="ai-catalog" link',
  agentmap: 'the robots.txt Agentmap line',
  'well-known': '/.well-known/ai-catalog.json',
};

/**
 * AI Catalog entries: identifier, displayName and the artifact's media type, with exactly one of url or data. The
 * media-type field is `type` in the current draft; `mediaType`, its earlier name, is read too.
 */
function entryProblems(entries: unknown[]): string[] {
  const problems: string[] = [];
  entries.slice(0, 50).forEach((entry, i) => {
    const e = entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
    const missing = ['identifier', 'displayName'].filter((k) => typeof e[k] !== 'string');
    if (typeof e.type !== 'string' && typeof e.mediaType !== 'string') missing.push('type');
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
    'Agentic Resource Discovery (ARD, draft, Linux Foundation AI Catalog working group): an AI Catalog (application/ai-catalog+json) at /.well-known/ai-catalog.json, or named by a rel="ai-catalog" link (HTML or Link header) or an "Agentmap:" line in robots.txt. The catalog carries specVersion and an entries array; each entry has identifier, displayName, type (earlier mediaType) and exactly one of url or data.',
  fix: 'Serve /.well-known/ai-catalog.json: {"specVersion":"1.0","entries":[{"identifier":"urn:air:you.com:mcp:main","displayName":"Your MCP server","type":"application/mcp-server-card+json","url":"https://you.com/.well-known/mcp/server-card.json"}]}.',
  evaluate(a) {
    const found = a.ard;
    if (!found) {
      if (!isProductSite(a)) return undecided(productDocs(a), 'whether the site is a product') ?? outcome('not_applicable', 'No product surface was found, so an ARD manifest is not expected');
      const answered = a.ardTried.find((d) => d.status !== null);
      if (!answered) return unreachable(a.ardTried[0] ?? null, 'the ARD manifest')!;
      return outcome('failed', `No ARD manifest (tried ${a.ardTried.map((d) => `${new URL(d.url).pathname} → ${d.status ?? 'no answer'}`).join(', ')})`, docEvidence(answered));
    }
    const json = parseJsonObject(found.doc.body)!;
    const entries = json.entries;
    const where = VIA[found.via];
    if (!Array.isArray(entries)) return outcome('warning', `A catalog was found through ${where}, but it has no entries array`, docEvidence(found.doc, 'body'));
    const problems = entryProblems(entries);
    if (typeof json.specVersion !== 'string') problems.unshift('no specVersion');
    const count = `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}`;
    if (problems.length > 0) return outcome('warning', `${count} via ${where}; ${problems.slice(0, 3).join('; ')}`, docEvidence(found.doc, 'body'));
    return outcome('passed', `AI Catalog ${json.specVersion}: ${count}, all valid, found through ${where}`, docEvidence(found.doc, 'body'));
  },
});
