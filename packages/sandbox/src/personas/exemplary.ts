import { z } from 'zod';
import { html, json, page, text } from '../responses';
import type { Persona, SandboxRequest, SandboxResponse } from '../types';

const SITE = 'Exemplary Co';
const DESCRIPTION = 'Exemplary Co is an invoicing API and dashboard for small businesses: create, send and track invoices from code or from an AI agent.';

const nav = `<nav><a href="/">Home</a> <a href="/product">Product</a> <a href="/pricing">Pricing</a> <a href="/docs">Docs</a> <a href="/docs/api">API reference</a> <a href="/signup">Sign up</a> <a href="/support">Support</a> <a href="/about">About</a> <a href="/llms.txt">llms.txt</a></nav>`;

const organization = {
  '@context': 'https://schema.org',
  '@type': 'Organization',
  name: SITE,
  url: 'https://exemplary-co.test/',
  contactPoint: { '@type': 'ContactPoint', email: 'support@exemplary-co.test', contactType: 'customer support' },
};

const offers = [
  { '@type': 'Offer', name: 'Free', price: '0', priceCurrency: 'USD' },
  { '@type': 'Offer', name: 'Pro', price: '49', priceCurrency: 'USD' },
  { '@type': 'Offer', name: 'Business', price: '199', priceCurrency: 'USD' },
];

const application = {
  '@context': 'https://schema.org',
  '@type': 'SoftwareApplication',
  name: 'Exemplary Invoicing',
  applicationCategory: 'BusinessApplication',
  description: DESCRIPTION,
  offers,
};

const HOME_MARKDOWN = `# Exemplary Co

> ${DESCRIPTION}

- [Pricing](/pricing): Free, Pro (49 USD/month), Business (199 USD/month)
- [Docs](/docs): getting started
- [API reference](/docs/api): REST API, described by /openapi.json
- [Sign up](/signup)
- [Support](/support): support@exemplary-co.test
`;

function home(req: SandboxRequest): SandboxResponse {
  const headers = {
    link: [
      '</.well-known/api-catalog>; rel="api-catalog"',
      '</openapi.json>; rel="service-desc"; type="application/openapi+json"',
      '</docs/api>; rel="service-doc"',
      '</llms.txt>; rel="describedby"; type="text/markdown"',
    ].join(', '),
    vary: 'Accept',
    // Mentions the challenge platform on purpose: a scanner must not read CSP words as a bot challenge.
    'content-security-policy': "default-src 'self'; script-src 'self' https://challenges.cloudflare.com; frame-src https://challenges.cloudflare.com",
  };
  if ((req.headers.accept ?? '').includes('text/markdown')) {
    return { status: 200, headers: { ...headers, 'content-type': 'text/markdown; charset=utf-8' }, body: HOME_MARKDOWN };
  }
  return html(
    page({
      title: `${SITE} – invoicing API for humans and agents`,
      description: DESCRIPTION,
      siteName: SITE,
      jsonLd: [organization, application],
      head: '<link rel="alternate" type="text/markdown" href="/index.md">\n<link rel="alternate" type="text/plain" title="llms.txt" href="/llms.txt">',
      body: `${nav}
<main>
<h1>Invoicing that agents can use</h1>
<p>${DESCRIPTION} Connect your accounting system, send invoices in any currency and get paid faster. Every feature of the dashboard is available through our REST API and our MCP server, so your AI assistant can draft and send invoices for you.</p>
<h2>Get started</h2>
<p>Create a free account, generate an API key and send your first invoice in five minutes. Read the <a href="/docs">documentation</a> or the <a href="/docs/api">API reference</a>.</p>
<form toolname="search_invoices" tooldescription="Search your invoices by customer name" action="/search"><input name="q"></form>
</main>`,
    }),
    200,
    headers,
  );
}

const pricing = html(
  page({
    title: `Pricing – ${SITE}`,
    description: 'Plans and prices for Exemplary Co: Free, Pro at 49 USD per month, Business at 199 USD per month.',
    siteName: SITE,
    jsonLd: [{ '@context': 'https://schema.org', '@type': 'Product', name: 'Exemplary Invoicing', offers: { '@type': 'AggregateOffer', lowPrice: '0', highPrice: '199', priceCurrency: 'USD', offers } }],
    body: `${nav}<main><h1>Pricing</h1>
<table><thead><tr><th>Plan</th><th>Price</th><th>Invoices</th></tr></thead>
<tbody><tr><td>Free</td><td>$0 / month</td><td>10</td></tr><tr><td>Pro</td><td>$49 / month</td><td>1,000</td></tr><tr><td>Business</td><td>$199 / month</td><td>Unlimited</td></tr></tbody></table>
<p><a href="/signup">Start free</a> or <a href="/checkout?plan=pro">buy Pro</a>.</p></main>`,
  }),
);

function openapi(req: SandboxRequest): SandboxResponse {
  return json({
    openapi: '3.1.0',
    info: { title: 'Exemplary Co API', version: '1.4.0', description: 'Create and send invoices.' },
    servers: [{ url: req.origin }],
    paths: {
      '/api/invoices': { get: { operationId: 'listInvoices', summary: 'List invoices', responses: { '200': { description: 'Invoices' } } } },
      '/api/reports/premium': {
        get: {
          operationId: 'premiumReport',
          summary: 'Premium revenue report, paid per call with x402',
          responses: { '200': { description: 'The report' }, '402': { description: 'Payment required (x402)' } },
        },
      },
    },
  });
}

function paymentRequired(req: SandboxRequest): SandboxResponse {
  const requirements = {
    x402Version: 2,
    accepts: [{ scheme: 'exact', network: 'base', maxAmountRequired: '10000', asset: 'USDC', payTo: '0x0000000000000000000000000000000000000001', resource: `${req.origin}/api/reports/premium` }],
  };
  return {
    status: 402,
    headers: {
      'content-type': 'application/json',
      'payment-required': Buffer.from(JSON.stringify(requirements)).toString('base64'),
      'www-authenticate': 'Payment id="rep-1", realm="exemplary-co.test", method="tempo", intent="charge", request="eyJhbW91bnQiOiIwLjAxIn0"',
    },
    body: JSON.stringify({ error: 'payment_required', ...requirements }),
  };
}

export const exemplary: Persona = {
  name: 'exemplary',
  hostname: 'exemplary-co.test',
  path: '/',
  expected: { kind: 'website', ending: 'finished', grades: ['A+', 'A'] },
  description: 'Does everything right: discovery files, open to AI agents, markdown, OpenAPI, OAuth metadata, an MCP server with an app, and agent payments.',
  routes: {
    '/': home,
    '/index.md': text(HOME_MARKDOWN, 'text/markdown; charset=utf-8'),
    '/robots.txt': (req) => text(`# Agents welcome. Content-Signal per contentsignals.org
User-agent: *
Content-Signal: search=yes, ai-input=yes, ai-train=no
Allow: /
Disallow: /account/

User-agent: GPTBot
User-agent: ClaudeBot
User-agent: CCBot
User-agent: Google-Extended
Disallow: /

User-agent: OAI-SearchBot
User-agent: ChatGPT-User
User-agent: Claude-SearchBot
User-agent: Claude-User
User-agent: PerplexityBot
User-agent: Perplexity-User
Allow: /

Sitemap: ${req.origin}/sitemap.xml
`),
    '/sitemap.xml': text(
      `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${['/', '/product', '/pricing', '/docs', '/docs/api', '/signup', '/support', '/about'].map((p) => `<url><loc>https://exemplary-co.test${p}</loc></url>`).join('\n')}
</urlset>`,
      'application/xml',
    ),
    '/llms.txt': text(
      `# Exemplary Co

> ${DESCRIPTION}

## Docs

- [Getting started](https://exemplary-co.test/docs): create an account and send a first invoice
- [API reference](https://exemplary-co.test/docs/api): every endpoint, with the OpenAPI document
- [MCP server](https://exemplary-co.test/docs/mcp): connect an AI agent

## Commercial

- [Pricing](https://exemplary-co.test/pricing): Free, Pro 49 USD, Business 199 USD
- [Support](https://exemplary-co.test/support)
`,
      'text/markdown; charset=utf-8',
    ),
    '/llms-full.txt': text(`# Exemplary Co\n\n> ${DESCRIPTION}\n\n## Getting started\n\nCreate an account at /signup, then call POST /api/invoices with your key.\n`, 'text/markdown; charset=utf-8'),
    '/product': html(page({ title: `Product – ${SITE}`, description: DESCRIPTION, siteName: SITE, body: `${nav}<main><h1>Product</h1><p>${DESCRIPTION}</p></main>` })),
    '/about': html(page({ title: `About – ${SITE}`, description: DESCRIPTION, siteName: SITE, body: `${nav}<main><h1>About us</h1><p>${DESCRIPTION} Founded in 2019, based in Lisbon.</p></main>` })),
    '/pricing': pricing,
    '/checkout': html(page({ title: `Checkout – ${SITE}`, body: `${nav}<main><h1>Checkout</h1><form method="post" action="/checkout"><input name="email" type="email"><button>Pay</button></form></main>` })),
    '/docs': html(page({ title: `Docs – ${SITE}`, description: 'Getting started with the Exemplary Co API.', siteName: SITE, body: `${nav}<main><h1>Documentation</h1><p>Sign up, create an API key under Settings, then call the API. See the <a href="/docs/api">API reference</a> and the <a href="/openapi.json">OpenAPI document</a>.</p></main>` })),
    '/docs/api': html(page({ title: `API reference – ${SITE}`, description: 'REST API reference.', siteName: SITE, body: `${nav}<main><h1>API reference</h1><p>The machine-readable description is at <a href="/openapi.json">/openapi.json</a>. Authenticate with OAuth 2.1 or an API key.</p></main>` })),
    '/signup': html(page({ title: `Sign up – ${SITE}`, description: 'Create your free Exemplary Co account.', siteName: SITE, body: `${nav}<main><h1>Create your account</h1><form method="post" action="/signup"><label>Email <input name="email" type="email" required></label><label>Password <input name="password" type="password" required></label><button type="submit">Create account</button></form></main>` })),
    '/support': html(page({ title: `Support – ${SITE}`, description: 'Get help from the Exemplary Co team.', siteName: SITE, body: `${nav}<main><h1>Support</h1><p>Write to <a href="mailto:support@exemplary-co.test">support@exemplary-co.test</a> or open the <a href="/support/status">status page</a>.</p></main>` })),
    '/openapi.json': openapi,
    '/api/reports/premium': paymentRequired,
    // The operation its OpenAPI document declares first: invoices belong to a signed-in business, so the API asks for
    // sign-in, as RFC 6750 §3 and RFC 9728 §5.1 say (the scanner verifies the document with this one GET).
    '/api/invoices': (req) => ({
      status: 401,
      headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer resource_metadata="${req.origin}/.well-known/oauth-protected-resource"` },
      body: JSON.stringify({ error: 'invalid_token', error_description: 'Sign in to list invoices.' }),
    }),
    '/.well-known/api-catalog': (req) =>
      json(
        { linkset: [{ anchor: `${req.origin}/api`, 'service-desc': [{ href: `${req.origin}/openapi.json`, type: 'application/openapi+json' }], 'service-doc': [{ href: `${req.origin}/docs/api` }] }] },
        200,
        'application/linkset+json',
      ),
    '/.well-known/mcp/server-card.json': (req) =>
      json({
        $schema: 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json',
        name: 'exemplary-co-invoicing',
        title: 'Exemplary Co invoicing',
        version: '1.4.0',
        description: 'Create, send and track invoices.',
        remotes: [{ type: 'streamable-http', url: `${req.origin}/mcp` }],
      }),
    '/.well-known/agent-card.json': (req) =>
      json({
        name: 'Exemplary Co invoicing agent',
        description: 'Creates and sends invoices on request.',
        url: `${req.origin}/a2a`,
        version: '1.0.0',
        capabilities: { streaming: false, extensions: [{ uri: 'https://github.com/google-agentic-commerce/ap2/tree/v0.1', description: 'AP2 payments', required: false }] },
        skills: [{ id: 'create-invoice', name: 'Create invoice', description: 'Creates an invoice for a customer.' }],
      }),
    // The A2A endpoint its card names: a live JSON-RPC 2.0 service answers a method it does not know with -32601 (the
    // scanner verifies a card's endpoint with such a call, and nothing here does more).
    '/a2a': () => json({ jsonrpc: '2.0', id: null, error: { code: -32601, message: 'Method not found' } }),
    '/.well-known/agent-skills/index.json': (req) =>
      json({ skills: [{ name: 'send-invoice', description: 'Send an invoice with the Exemplary Co API', url: `${req.origin}/skills/send-invoice/SKILL.md` }] }),
    '/.well-known/oauth-authorization-server': (req) => json(authorizationServer(req.origin)),
    '/.well-known/openid-configuration': (req) => json({ ...authorizationServer(req.origin), jwks_uri: `${req.origin}/oauth/jwks` }),
    '/.well-known/oauth-protected-resource': (req) => json({ resource: `${req.origin}/api`, authorization_servers: [req.origin], scopes_supported: ['invoices'] }),
    '/.well-known/acp.json': (req) => json({ protocol: 'acp', version: '2026-01-30', checkout_sessions_url: `${req.origin}/checkout_sessions` }),
    '/.well-known/ucp': (req) => json({ ucp: { version: '2026-01-11', services: { 'dev.ucp.shopping': { rest: { endpoint: `${req.origin}/ucp` } } } } }),
  },
  mcp: {
    path: '/mcp',
    serverInfo: { name: 'exemplary-co-invoicing', version: '1.4.0', title: 'Exemplary Co invoicing' },
    validateOrigin: true,
    instructions: 'Use list_invoices to find invoices and create_invoice to draft one. Amounts are in minor units.',
    register(server) {
      server.registerTool(
        'list_invoices',
        {
          title: 'List invoices',
          description: 'Lists the invoices of the signed-in business, newest first. Use it to find an invoice before changing it. Returns id, customer, amount and status.',
          inputSchema: { status: z.enum(['draft', 'sent', 'paid']).optional().describe('Only invoices in this state'), limit: z.number().int().max(100).optional().describe('How many to return, at most 100') },
          outputSchema: { invoices: z.array(z.object({ id: z.string(), customer: z.string(), amount: z.number(), status: z.string() })) },
          annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        },
        async () => {
          const invoices = [{ id: 'inv_1', customer: 'Acme', amount: 4900, status: 'sent' }];
          return { content: [{ type: 'text', text: JSON.stringify({ invoices }) }], structuredContent: { invoices } };
        },
      );
      server.registerTool(
        'create_invoice',
        {
          title: 'Create invoice',
          description: 'Creates a draft invoice for a customer. The invoice is not sent until send_invoice is called, so it is safe to retry with the same idempotency key.',
          inputSchema: { customer: z.string().describe('Customer name or id'), amount: z.number().int().describe('Amount in minor units, e.g. cents'), currency: z.string().length(3).describe('ISO 4217 currency code') },
          annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        },
        async ({ customer }) => ({ content: [{ type: 'text', text: `Draft invoice created for ${customer}` }] }),
      );
      server.registerTool(
        'show_revenue_chart',
        {
          title: 'Show revenue chart',
          description: 'Shows an interactive chart of monthly revenue. Hosts without UI support get the same numbers as text.',
          inputSchema: { months: z.number().int().max(24).describe('How many months to chart') },
          annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
          _meta: { ui: { resourceUri: 'ui://exemplary/revenue-chart.html' } },
        },
        async () => ({ content: [{ type: 'text', text: 'Jan 4900, Feb 9800' }] }),
      );
      server.registerResource(
        'revenue-chart',
        'ui://exemplary/revenue-chart.html',
        { mimeType: 'text/html;profile=mcp-app', description: 'Revenue chart view' },
        async (uri) => ({
          contents: [{ uri: uri.href, mimeType: 'text/html;profile=mcp-app', text: '<!doctype html><html><body><div id="chart">Revenue</div></body></html>', _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } } }],
        }),
      );
    },
  },
};

function authorizationServer(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    registration_endpoint: `${origin}/oauth/register`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    client_id_metadata_document_supported: true,
  };
}
