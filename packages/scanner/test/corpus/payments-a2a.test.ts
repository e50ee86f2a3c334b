import type { ScanResult } from '../../src';
import { checkOf, scanCorpus, startA2aAgent, startX402Paywall, startX402V1Paywall } from './index';
import type { RunningServer } from './index';

/**
 * A real x402 paywall built with @x402/express (only the facilitator is a stub, offline) and a real A2A agent built
 * with @a2a-js/sdk, scanned on loopback. Expected verdicts come from the standards, cited per test.
 */
describe('payment and agent servers from npm', () => {
  const servers: RunningServer[] = [];
  const results: Record<string, ScanResult> = {};
  let paywall: RunningServer;

  beforeAll(async () => {
    const started = await Promise.all([startX402Paywall(), startX402V1Paywall(), startA2aAgent()]);
    servers.push(...started);
    [paywall] = started;
    const [paidUrl, home, v1Url, agentHome] = await Promise.all([scanCorpus(paywall.url), scanCorpus(`${paywall.origin}/`), scanCorpus(started[1].url), scanCorpus(started[2].url)]);
    Object.assign(results, { paidUrl, home, v1Url, agentHome });
  });
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it('a scanned URL that itself answers 402 with a valid PAYMENT-REQUIRED header supports x402 v2', () => {
    // x402 v2, specs/transports-v2/http.md "Payment Required Signaling": HTTP 402 with a PAYMENT-REQUIRED header holding
    // the base64 PaymentRequired object (x402Version 2, accepts[]).
    expect(results.paidUrl.ending).toBe('finished');
    const check = results.paidUrl.checks.find((c) => c.id === 'payments-x402')!;
    expect(check.status).toBe('passed');
    expect(check.evidence.detail).toMatch(/x402 v2 with 1 payment option\(s\), e\.g\. exact eip155:84532/);
    expect(check.evidence.header).toMatch(/^payment-required: /);
  });

  it('an account-less paid API is not asked for OAuth metadata', () => {
    // x402 v1 §2 "Core Payment Flow": request, 402 with requirements, paid retry; no account or API key is involved,
    // so there is nothing to sign in to (RFC 8414 metadata is for sites with authorization).
    expect(checkOf(results.paidUrl, 'oauth-discovery').status).toBe('not_applicable');
    expect(checkOf(results.home, 'oauth-discovery').status).toBe('not_applicable');
  });

  it('a home page that links to a paid resource supports x402 through that link', () => {
    // Same signal (transports-v2/http.md) found one link away: /api/forecast answers 402 with PAYMENT-REQUIRED.
    const check = results.home.checks.find((c) => c.id === 'payments-x402')!;
    expect(check.status).toBe('passed');
    expect(check.evidence.url).toBe(`${paywall.origin}/api/forecast`);
    expect(results.home.layers.find((l) => l.id === 'payments')!.score).toBe(100);
  });

  it('x402 v1: a 402 whose JSON body carries x402Version and accepts', () => {
    // x402 v1 §5.1 PaymentRequirementsResponse: x402Version, error and accepts[] in the JSON payload.
    expect(checkOf(results.v1Url, 'payments-x402')).toMatchObject({ status: 'passed', detail: expect.stringMatching(/x402 v1 with 1 payment option\(s\), e\.g\. exact base-sepolia 10000/) });
  });

  it('the agent card the SDK serves counts, although the host shows no product surface', () => {
    // A2A v1.0 §8.1: A2A servers MUST make an Agent Card available; §8.2: at https://{server_domain}/.well-known/agent-card.json.
    expect(checkOf(results.agentHome, 'a2a-agent-card')).toEqual({ id: 'a2a-agent-card', status: 'passed', detail: 'Agent card "Helper agent" (A2A 1.0) with 1 skill(s) and 1 interface(s); its JSON-RPC endpoint answers' });
  });
});
