import { CHECK_CATALOG } from '../src/checks/catalog';
import { runChecks } from '../src/checks/run-checks';
import type { CheckDefinition } from '../src/checks/types';
import type { Artifacts } from '../src/gather/artifacts';
import { summarizeHtml } from '../src/util/html-summary';
import { AUTH_SERVER, badSite, doc, goodMcp, goodSite, json, modernMcp, notFound, ORIGIN } from './fixtures/artifacts';

const byId = new Map(CHECK_CATALOG.map((c) => [c.id, c]));
const check = (id: string): CheckDefinition => {
  const found = byId.get(id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

const withAuthRequiredMcp = (a: Artifacts, prm: Artifacts['protectedResource'], metadataUrl: string | null): Artifacts => ({
  ...a,
  mcp: goodMcp({
    auth: { required: true, status: 401, wwwAuthenticate: metadataUrl ? `Bearer resource_metadata="${metadataUrl}"` : 'Bearer', resourceMetadataUrl: metadataUrl },
    initialize: { ok: false, protocolVersion: null, serverInfo: null, capabilities: null, instructions: null, error: null, fetchFailure: false, fetchErrorCode: null, spokeJsonRpc: false },
    tools: null,
    uiResources: [],
  }),
  protectedResource: prm,
});

/** Fixtures that need more than the good/bad sites: [passing, failing] builders. */
const SPECIAL: Record<string, [() => Artifacts, () => Artifacts]> = {
  'llms-txt-linked': [goodSite, () => ({ ...badSite(), llmsTxt: goodSite().llmsTxt })],
  openapi: [goodSite, () => ({ ...badSite(), home: doc('/', 200, '', { link: '</openapi.json>; rel="service-desc"' }) })],
  'mcp-card-consistent': [goodSite, () => ({ ...goodSite(), wellKnown: { ...goodSite().wellKnown, mcpServerCard: json('/.well-known/mcp/server-card.json', { name: 'other', url: `${ORIGIN}/mcp` }) } })],
  'public-home-page': [goodSite, () => ({ ...badSite(), home: doc('/', 401, 'Unauthorized', { 'www-authenticate': 'Basic' }), homeHtml: null })],
  'protected-resource-metadata': [
    () => withAuthRequiredMcp(goodSite(), json('/.well-known/oauth-protected-resource/mcp', { resource: `${ORIGIN}/mcp`, authorization_servers: [ORIGIN] }), `${ORIGIN}/.well-known/oauth-protected-resource/mcp`),
    () => withAuthRequiredMcp(goodSite(), notFound('/.well-known/oauth-protected-resource/mcp'), null),
  ],
  'oauth-discovery': [goodSite, () => ({ ...badSite(), homeHtml: summarizeHtml('<html><body><a href="/login">Log in</a></body></html>', `${ORIGIN}/`) })],
  'pkce-s256': [goodSite, () => ({ ...badSite(), authorizationServer: json('/.well-known/oauth-authorization-server', { ...AUTH_SERVER, code_challenge_methods_supported: ['plain'] }) })],
  'client-registration': [goodSite, () => ({ ...badSite(), authorizationServer: json('/.well-known/oauth-authorization-server', { ...AUTH_SERVER, registration_endpoint: undefined }) })],
  'honest-429': [
    () => ({ ...goodSite(), robots: doc('/robots.txt', 429, '', { 'retry-after': '30' }) }),
    () => ({ ...goodSite(), robots: doc('/robots.txt', 429, '') }),
  ],
  'mcp-initialize': [goodSite, () => ({ ...goodSite(), mcp: goodMcp({ initialize: { ...goodMcp().initialize, ok: false, error: 'Unexpected content type', fetchFailure: false } }) })],
  'mcp-tools-list': [goodSite, () => ({ ...goodSite(), mcp: goodMcp({ tools: { ok: true, items: [], error: null } }) })],
  // MCP 2026-07-28 rules: judged only for servers that list 2026-07-28 in server/discover.
  'mcp-result-type': [() => ({ ...goodSite(), mcp: modernMcp() }), () => ({ ...goodSite(), mcp: modernMcp({ modern: { ...modernMcp().modern!, results: [{ method: 'server/discover', resultType: null, ttlMs: 1, cacheScope: 'public' }] } }) })],
  'mcp-cache-hints': [() => ({ ...goodSite(), mcp: modernMcp() }), () => ({ ...goodSite(), mcp: modernMcp({ modern: { ...modernMcp().modern!, results: [{ method: 'tools/list', resultType: 'complete', ttlMs: -5, cacheScope: 'everyone' }] } }) })],
  'mcp-request-headers': [() => ({ ...goodSite(), mcp: modernMcp() }), () => ({ ...goodSite(), mcp: modernMcp({ modern: { ...modernMcp().modern!, headerMismatch: { status: 200, errorCode: null, answered: true, fetchFailure: false } } }) })],
  'mcp-stateless': [() => ({ ...goodSite(), mcp: modernMcp() }), () => ({ ...goodSite(), mcp: modernMcp({ modern: { ...modernMcp().modern!, sessionIds: ['abc'] } }) })],
  // AID v2.1 §2: one valid record at _agent.<host>; none on a product site is an opportunity missed (emerging).
  'dns-agent-discovery': [
    () => ({ ...goodSite(), agentDns: { name: '_agent.acme.com', records: ['v=aid2;u=https://acme.com/mcp;p=mcp'], absent: false, error: null, skipped: null } }),
    () => ({ ...goodSite(), agentDns: { name: '_agent.acme.com', records: [], absent: true, error: null, skipped: null } }),
  ],
};

describe('every check has a passing and a failing fixture', () => {
  it.each(CHECK_CATALOG.map((c) => [c.id]))('%s', (id) => {
    const [passing, failing] = SPECIAL[id] ?? [goodSite, badSite];
    const definition = check(id);
    const pass = definition.evaluate(passing());
    const fail = definition.evaluate(failing());
    expect({ id, status: pass.status, detail: pass.evidence.detail }).toMatchObject({ status: 'passed' });
    expect({ id, status: fail.status, detail: fail.evidence.detail }).toMatchObject({ status: 'failed' });
    expect(fail.evidence.detail.length).toBeGreaterThan(0);
  });

  it('failed checks carry a concrete fix and passed ones none', () => {
    const results = runChecks(CHECK_CATALOG, badSite());
    for (const r of results.filter((x) => x.status === 'failed')) expect((r.fix ?? '').length).toBeGreaterThan(20);
    for (const r of runChecks(CHECK_CATALOG, goodSite()).filter((x) => x.status === 'passed')) expect(r.fix).toBeNull();
  });
});

describe('check semantics', () => {
  it('robots.txt 4xx allows everything and 5xx disallows everything (RFC 9309)', () => {
    const bots = check('ai-search-bots-allowed');
    expect(bots.evaluate({ ...goodSite(), robots: notFound('/robots.txt') }).status).toBe('passed');
    expect(bots.evaluate({ ...goodSite(), robots: doc('/robots.txt', 500, '') }).status).toBe('failed');
  });

  it('a fetch error is never a fail', () => {
    const offline = doc('/robots.txt', null, '', {}, { code: 'timeout', message: 'timed out' });
    for (const id of ['robots-txt', 'ai-search-bots-allowed', 'ai-training-bot-policy', 'content-signals']) {
      expect(check(id).evaluate({ ...goodSite(), robots: offline }).status).toBe('couldnt_check');
    }
    expect(check('llms-txt').evaluate({ ...goodSite(), llmsTxt: doc('/llms.txt', null, '', {}, { code: 'dns', message: 'x' }) }).status).toBe('couldnt_check');
  });

  it('training bots blocked while search bots are allowed is fine', () => {
    const robots = doc('/robots.txt', 200, 'User-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n');
    expect(check('ai-search-bots-allowed').evaluate({ ...goodSite(), robots }).status).toBe('passed');
    expect(check('ai-training-bot-policy').evaluate({ ...goodSite(), robots }).status).toBe('passed');
  });

  it('a CSP header naming challenge hosts is not a challenge', () => {
    const a = goodSite();
    expect(a.home!.headers['content-security-policy']).toContain('challenges.cloudflare.com');
    expect(check('no-bot-challenge').evaluate(a).status).toBe('passed');
  });

  it('payments are not applicable without commerce, and any one protocol satisfies', () => {
    const content = goodSite();
    const html = '<html><head><title>Journal</title></head><body><h1>Ferns</h1><a href="/articles">Articles</a></body></html>';
    const noCommerce: Artifacts = { ...content, home: doc('/', 200, html, { 'content-type': 'text/html' }), homeHtml: summarizeHtml(html, `${ORIGIN}/`), pricing: notFound('/pricing'), pricingHtml: null, paymentProbe: null, wellKnown: {}, openapi: [], mcp: null };
    for (const id of ['payments-x402', 'payments-http-auth', 'payments-acp', 'payments-ucp', 'payments-ap2']) {
      expect(check(id).evaluate(noCommerce).status).toBe('not_applicable');
    }
    const onlyAcp: Artifacts = { ...goodSite(), paymentProbe: null, wellKnown: { ...goodSite().wellKnown, ucp: notFound('/.well-known/ucp'), agentCard: notFound('/.well-known/agent-card.json') } };
    expect(check('payments-acp').evaluate(onlyAcp).status).toBe('passed');
    expect(check('payments-x402').evaluate(onlyAcp).status).toBe('not_applicable');
    expect(check('payments-ucp').evaluate(onlyAcp).status).toBe('not_applicable');
  });

  it('a check that throws becomes couldnt_check and the run carries on', () => {
    const throwing = { ...check('robots-txt'), id: 'boom', evaluate: () => { throw new Error('kaboom'); } } as CheckDefinition;
    const results = runChecks([throwing, check('sitemap')], goodSite());
    expect(results[0]).toMatchObject({ id: 'boom', status: 'couldnt_check', earned: 0 });
    expect(results[1].status).toBe('passed');
  });

  it('website-only checks are not applicable to MCP servers', () => {
    const results = runChecks(CHECK_CATALOG, { ...goodSite(), kind: 'mcp_server' });
    expect(results.find((r) => r.id === 'robots-txt')!.status).toBe('not_applicable');
    expect(results.find((r) => r.id === 'mcp-tools-list')!.status).toBe('passed');
  });

  it('mcp-origin-check: 403 passes, another 4xx warns, 5xx or no answer cannot tell (MCP 2025-11-25 transports §2.0.1)', () => {
    const origin = check('mcp-origin-check');
    const probe = (status: number | null) => ({ ...goodSite(), mcp: goodMcp({ originCheck: { origin: 'https://dns-rebinding-check.invalid', status, error: status === null ? 'timed out' : null } }) });
    expect(origin.evaluate(probe(400)).status).toBe('warning');
    expect(origin.evaluate(probe(503)).status).toBe('couldnt_check');
    expect(origin.evaluate(probe(null)).status).toBe('couldnt_check');
    expect(origin.evaluate({ ...goodSite(), mcp: goodMcp({ transport: 'sse', originCheck: { origin: 'https://dns-rebinding-check.invalid', status: 200, error: null } }) }).evidence.detail).toMatch(/stream request/);
  });

  it('oauth-discovery: the issuer must be the one the metadata was fetched for (RFC 8414 §3.3); "/" after the host is the same URI (RFC 3986 §6.2.3)', () => {
    const discovery = check('oauth-discovery');
    const withIssuer = (issuer: string): Artifacts => ({ ...goodSite(), authorizationServer: json('/.well-known/oauth-authorization-server', { ...AUTH_SERVER, issuer }) });
    expect(discovery.evaluate(withIssuer(`${ORIGIN}/`)).status).toBe('passed');
    expect(discovery.evaluate(withIssuer('https://login.other.example')).evidence.detail).toMatch(/issuer "https:\/\/login\.other\.example" is not the issuer it was fetched for/);
    expect(discovery.evaluate(withIssuer('https://login.other.example')).status).toBe('failed');
    expect(discovery.evaluate(withIssuer(`${ORIGIN}/tenant`)).status).toBe('failed');
  });

  it('MCP tool checks report what is wrong', () => {
    const a = badSite();
    expect(check('mcp-tool-names').evaluate(a).evidence.detail).toMatch(/outside the MCP name rules: get weather!.*duplicated/);
    expect(check('mcp-safety-lint').evaluate(a).evidence.detail).toMatch(/prompt-injection/);
    const hidden: Artifacts = { ...goodSite(), mcp: goodMcp({ tools: { ok: true, items: [{ name: 'x', description: 'Looks fine\u200b but hides text', inputSchema: { type: 'object' } }], error: null } }) };
    expect(check('mcp-safety-lint').evaluate(hidden).evidence.detail).toMatch(/invisible Unicode/);
  });
});

describe('catalog', () => {
  it('has at least 35 checks with unique stable ids across the four layers', () => {
    expect(CHECK_CATALOG.length).toBeGreaterThanOrEqual(35);
    expect(new Set(CHECK_CATALOG.map((c) => c.id)).size).toBe(CHECK_CATALOG.length);
    expect(new Set(CHECK_CATALOG.map((c) => c.layer))).toEqual(new Set(['discovery', 'access', 'usability', 'payments']));
    for (const c of CHECK_CATALOG) {
      expect(c.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(Number.isInteger(c.points) && c.points > 0).toBe(true);
      expect(c.fix.length).toBeGreaterThan(10);
    }
  });
});

describe('MCP 2026-07-28 beside 2025-11-25', () => {
  const registrationOnly = () => json('/.well-known/oauth-authorization-server', { issuer: ORIGIN, authorization_endpoint: `${ORIGIN}/authorize`, token_endpoint: `${ORIGIN}/token`, registration_endpoint: `${ORIGIN}/register`, code_challenge_methods_supported: ['S256'] });

  it('dynamic registration without CIMD is a warning for a 2026-07-28 server and never marks down an older one', () => {
    const registration = check('client-registration');
    expect(registration.evaluate({ ...goodSite(), mcp: modernMcp(), authorizationServer: registrationOnly() })).toMatchObject({ status: 'warning', evidence: { detail: expect.stringContaining('deprecates it') } });
    expect(registration.evaluate({ ...goodSite(), mcp: goodMcp(), authorizationServer: registrationOnly() })).toMatchObject({ status: 'passed', evidence: { detail: expect.stringContaining('judged by 2025-11-25, which predates') } });
  });

  it('the 2026 rules never fail a 2025-11-25 server', () => {
    for (const id of ['mcp-result-type', 'mcp-cache-hints', 'mcp-request-headers', 'mcp-stateless']) {
      expect(check(id).evaluate({ ...goodSite(), mcp: goodMcp() })).toMatchObject({ status: 'not_applicable', evidence: { detail: expect.stringContaining('2025-11-25, which predates') } });
    }
  });

  it('HTTP+SSE is a warning, never a failure', () => {
    expect(check('mcp-initialize').evaluate({ ...goodSite(), mcp: goodMcp({ transport: 'sse', initialize: { ...goodMcp().initialize, protocolVersion: '2024-11-05' } }) }).status).toBe('warning');
  });

  it('a server listing 2025-11-25 beside 2026-07-28 whose initialize fails is a warning naming both', () => {
    const dual = modernMcp({ modern: { ...modernMcp().modern!, supportedVersions: ['2026-07-28', '2025-11-25'] }, revisions: { judgedBy: '2026-07-28', discover: { status: 200, supportedVersions: ['2026-07-28', '2025-11-25'] }, legacy: { ok: false, protocolVersion: null, error: 'HTTP 400' } } });
    expect(check('mcp-initialize').evaluate({ ...goodSite(), mcp: dual })).toMatchObject({ status: 'warning', evidence: { detail: expect.stringMatching(/2025-11-25 initialize failed: HTTP 400/) } });
  });

  it('a refused mismatched request with another 4xx is a warning; no answer is couldnt_check', () => {
    const probe = (headerMismatch: NonNullable<ReturnType<typeof modernMcp>['modern']>['headerMismatch']) => check('mcp-request-headers').evaluate({ ...goodSite(), mcp: modernMcp({ modern: { ...modernMcp().modern!, headerMismatch } }) }).status;
    expect(probe({ status: 422, errorCode: null, answered: false, fetchFailure: false })).toBe('warning');
    expect(probe({ status: null, errorCode: null, answered: false, fetchFailure: true })).toBe('couldnt_check');
  });
});
