import fc from 'fast-check';
import { CHECK_CATALOG } from '../src/checks/catalog';
import { runChecks, toResult } from '../src/checks/run-checks';
import type { Artifacts } from '../src/gather/artifacts';
import { scoreChecks } from '../src/scoring/score';
import type { CheckResult, CheckStatus } from '../src/types';
import { json, ORIGIN } from './fixtures/artifacts';
import { docsSite, richSite } from './fixtures/sites';

/**
 * The fairness properties of the published score (README "Scoring"): a site that offers more working capabilities
 * ranks higher, and emerging or draft standards are opportunities, never penalties.
 */

const STATUSES: CheckStatus[] = ['passed', 'warning', 'failed', 'not_applicable', 'couldnt_check'];
const statusesArb = fc.array(fc.constantFrom(...STATUSES), { minLength: CHECK_CATALOG.length, maxLength: CHECK_CATALOG.length });

function resultsFrom(statuses: readonly CheckStatus[]): CheckResult[] {
  return CHECK_CATALOG.map((check, i) => toResult(check, { status: statuses[i], evidence: { detail: 'x' } }));
}
const scoreOf = (statuses: readonly CheckStatus[]): number => scoreChecks(resultsFrom(statuses)).score ?? 0;

/** The checks a capability brings with it: they are not applicable to a site without it. */
const CAPABILITY_CHECKS: Record<string, (id: string) => boolean> = {
  'an API': (id) => id === 'openapi' || id === 'api-catalog',
  'an MCP server': (id) => id.startsWith('mcp-'),
  'readable pricing': (id) => id === 'pricing-readable',
};

describe('fair score: properties', () => {
  it.each(Object.entries(CAPABILITY_CHECKS))('dominance: adding %s that works scores strictly higher unless both are 100', (_name, belongs) => {
    fc.assert(
      fc.property(statusesArb, (statuses) => {
        const without = statuses.map((s, i) => (belongs(CHECK_CATALOG[i].id) ? 'not_applicable' : s));
        const withIt = statuses.map((s, i) => (belongs(CHECK_CATALOG[i].id) ? 'passed' : s));
        const before = scoreOf(without);
        const after = scoreOf(withIt);
        return after > before || (before === 100 && after === 100);
      }),
      { numRuns: 400 },
    );
  });

  it('emerging and draft standards only add: a failed emerging check scores as if it did not apply', () => {
    const emerging = CHECK_CATALOG.map((c, i) => (c.tier === 'emerging' ? i : -1)).filter((i) => i >= 0);
    fc.assert(
      fc.property(statusesArb, fc.constantFrom(...emerging), (statuses, index) => {
        const absent = [...statuses];
        absent[index] = 'not_applicable';
        const failed = [...statuses];
        failed[index] = 'failed';
        const passed = [...statuses];
        passed[index] = 'passed';
        return scoreOf(failed) === scoreOf(absent) && scoreOf(passed) >= scoreOf(absent);
      }),
      { numRuns: 600 },
    );
  });
});

const scanScore = (a: Artifacts) => scoreChecks(runChecks(CHECK_CATALOG, a));

describe('fair score: fixture pairs', () => {
  it('a site with everything a docs site has plus an API, an MCP server, OAuth metadata and pricing scores strictly higher', () => {
    const docs = scanScore(docsSite());
    const rich = scanScore(richSite());
    expect(docs.score).not.toBeNull();
    expect(rich.score!).toBeGreaterThan(docs.score!);
  });

  it('a seller without a pre-standard agent payment protocol is not given a payments layer of 0', () => {
    const rich = scanScore(richSite());
    const payments = rich.layers.find((l) => l.id === 'payments')!;
    expect(payments.score).toBeNull();
    const checks = runChecks(CHECK_CATALOG, richSite());
    expect(checks.find((c) => c.id === 'payments-x402')!.status).toBe('failed'); // still shown as an opportunity
  });

  it('an MCP server without a draft server card keeps its discovery layer out of the score instead of at 0', () => {
    const server: Artifacts = { ...richSite(), kind: 'mcp_server', targetUrl: `${ORIGIN}/mcp` };
    const withoutCard = scanScore(server);
    expect(withoutCard.layers.find((l) => l.id === 'discovery')!.score).toBeNull();
    const withCard = scanScore({ ...server, wellKnown: { ...server.wellKnown, mcpServerCard: json('/.well-known/mcp/server-card.json', { name: 'shop', remotes: [{ type: 'streamable-http', url: `${ORIGIN}/mcp` }] }) } });
    expect(withCard.score!).toBeGreaterThanOrEqual(withoutCard.score!);
    expect(withCard.layers.find((l) => l.id === 'discovery')!.score).toBe(100);
  });
});
