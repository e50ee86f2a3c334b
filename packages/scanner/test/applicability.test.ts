import { CHECK_CATALOG } from '../src/checks/catalog';
import { runChecks } from '../src/checks/run-checks';
import type { Artifacts } from '../src/gather/artifacts';
import type { CheckStatus } from '../src/types';
import { summarizeHtml } from '../src/util/html-summary';
import { doc, json, ORIGIN } from './fixtures/artifacts';
import { docsSite, richSite } from './fixtures/sites';

const statusOf = (a: Artifacts, id: string): CheckStatus => runChecks(CHECK_CATALOG, a).find((c) => c.id === id)!.status;

describe('applicability', () => {
  it('a valid A2A agent card counts even on a host without a product surface', () => {
    // A2A v1.0 §8.1-8.2: an A2A server MUST make an Agent Card available, found at /.well-known/agent-card.json;
    // publishing one is itself the agent surface, whatever else the host shows.
    const card = { protocolVersion: '0.3.0', name: 'Helper agent', description: 'Answers questions', url: `${ORIGIN}/a2a`, version: '1.0.0', capabilities: {}, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [{ id: 'qa', name: 'Q&A', description: 'answers', tags: [] }] };
    const site: Artifacts = { ...docsSite(), wellKnown: { ...docsSite().wellKnown, agentCard: json('/.well-known/agent-card.json', card) } };
    // It applies (in the A2A 0.3 shape, so a warning rather than a pass).
    expect(statusOf(site, 'a2a-agent-card')).toBe('warning');
    expect(statusOf(docsSite(), 'a2a-agent-card')).toBe('not_applicable');
  });

  it('OAuth discovery is not demanded of an account-less API where nothing needs sign-in', () => {
    // An x402 API sells per request with no account (x402 v1 spec §2 "Core Payment Flow": the 402 and a signed
    // payment are the whole exchange, no sign-up or API key),
    // so there is nothing for an agent to sign in to: RFC 8414 metadata is not expected.
    const api: Artifacts = {
      ...richSite(),
      mcp: null,
      wellKnown: { ...richSite().wellKnown, oauthAuthorizationServer: doc('/.well-known/oauth-authorization-server', 404, 'Not found') },
      authorizationServer: doc('/.well-known/oauth-authorization-server', 404, 'Not found'),
      paymentProbe: doc('/api/paid', 402, '{"x402Version":1,"accepts":[{"scheme":"exact","network":"base-sepolia"}]}', { 'content-type': 'application/json' }),
    };
    expect(statusOf(api, 'oauth-discovery')).toBe('not_applicable');
    // A home page that offers to sign in still expects it.
    const withLogin = api.home!.body.replace('<a href="/docs">', '<a href="/login">Log in</a> <a href="/docs">');
    const home = doc('/', 200, withLogin, { 'content-type': 'text/html' });
    expect(statusOf({ ...api, home, homeHtml: summarizeHtml(withLogin, home.url) }, 'oauth-discovery')).toBe('failed');
  });

  it('a docs page that mentions a price does not count as commerce', () => {
    // The /pricing path of a docs site falls through to a documentation page whose example mentions "$5".
    const body = '<!doctype html><html><head><title>Webhooks – Example Docs</title></head><body><h1>Webhooks</h1><p>Each event carries an amount, e.g. $5.00 for a test charge.</p></body></html>';
    const pricing = doc('/pricing', 200, body, { 'content-type': 'text/html' });
    const site: Artifacts = { ...docsSite(), pricing, pricingHtml: summarizeHtml(body, pricing.url) };
    expect(statusOf(site, 'pricing-readable')).toBe('not_applicable');
    expect(statusOf(site, 'payments-x402')).toBe('not_applicable');
    // A real pricing page still counts.
    const real = '<!doctype html><html><head><title>Pricing – Example</title></head><body><h1>Plans</h1><p>Pro $49 / month</p></body></html>';
    const realDoc = doc('/pricing', 200, real, { 'content-type': 'text/html' });
    expect(statusOf({ ...docsSite(), pricing: realDoc, pricingHtml: summarizeHtml(real, realDoc.url) }, 'pricing-readable')).toBe('warning');
    // ...and so does one at /pricing under another title that reads like pricing.
    const plain = '<!doctype html><html><head><title>Example</title></head><body><h1>Simple and transparent</h1><p>Pro: $49 per month, billed yearly.</p></body></html>';
    const plainDoc = doc('/pricing', 200, plain, { 'content-type': 'text/html' });
    expect(statusOf({ ...docsSite(), pricing: plainDoc, pricingHtml: summarizeHtml(plain, plainDoc.url) }, 'pricing-readable')).toBe('warning');
  });
});
