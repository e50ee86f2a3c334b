import type { Artifacts } from '../../gather/artifacts';
import { parseJsonObject } from '../../util/json';
import type { CheckOutcome } from '../types';
import { ALL_KINDS, defineCheck, docEvidence, outcome } from '../define';
import { ap2Extension, hasCommerce, PaymentProtocol, paymentProtocols } from '../signals';

const NAMES: Record<PaymentProtocol, string> = { x402: 'x402', 'payment-auth': 'the Payment auth scheme', acp: 'ACP', ucp: 'UCP', ap2: 'AP2' };

/** Any one protocol satisfies the layer: the others become not applicable instead of failing. */
function judge(a: Artifacts, protocol: PaymentProtocol, found: () => CheckOutcome): CheckOutcome {
  if (!hasCommerce(a)) return outcome('not_applicable', 'No commerce was detected, so agent payments do not apply');
  const present = paymentProtocols(a);
  if (present.has(protocol)) return found();
  if (present.size > 0) return outcome('not_applicable', `Agent payments are already covered by ${[...present].map((p) => NAMES[p]).join(', ')}`);
  return outcome('failed', `The site sells something but supports no agent payment protocol (looked for x402, Payment auth, ACP, UCP, AP2)`, { url: a.paymentProbe?.url ?? a.origin });
}

export const x402 = defineCheck({
  id: 'payments-x402',
  name: 'x402 payment challenge',
  layer: 'payments',
  tier: 'emerging',
  appliesTo: ALL_KINDS,
  description: 'A paid endpoint answers 402 with x402 payment requirements (PAYMENT-REQUIRED header in v2, or an x402 JSON body).',
  fix: 'Answer unpaid calls to paid endpoints with 402 and x402 payment requirements; document the 402 response in OpenAPI so agents find it.',
  evaluate: (a) =>
    judge(a, 'x402', () =>
      outcome('passed', '402 with x402 payment requirements', { ...docEvidence(a.paymentProbe), header: a.paymentProbe?.headers['payment-required'] ? `payment-required: ${a.paymentProbe.headers['payment-required'].slice(0, 80)}` : undefined }),
    ),
});

export const paymentAuthScheme = defineCheck({
  id: 'payments-http-auth',
  name: '"Payment" HTTP authentication scheme',
  layer: 'payments',
  tier: 'emerging',
  appliesTo: ALL_KINDS,
  description: 'A 402 challenge with WWW-Authenticate: Payment ... (the Machine Payments Protocol draft).',
  fix: 'Send WWW-Authenticate: Payment id=..., method=..., request=... with 402 responses.',
  evaluate: (a) => judge(a, 'payment-auth', () => outcome('passed', '402 with a Payment challenge', { ...docEvidence(a.paymentProbe), header: `www-authenticate: ${a.paymentProbe?.headers['www-authenticate']}` })),
});

export const acp = defineCheck({
  id: 'payments-acp',
  name: 'Agentic Commerce Protocol',
  layer: 'payments',
  tier: 'emerging',
  appliesTo: ALL_KINDS,
  description: 'ACP discovery at /.well-known/acp.json pointing to checkout sessions.',
  fix: 'Implement ACP checkout sessions and publish /.well-known/acp.json.',
  evaluate: (a) => judge(a, 'acp', () => outcome('passed', 'ACP discovery document found', docEvidence(a.wellKnown.acp, 'body'))),
});

export const ucp = defineCheck({
  id: 'payments-ucp',
  name: 'Universal Commerce Protocol',
  layer: 'payments',
  tier: 'emerging',
  appliesTo: ALL_KINDS,
  description: 'UCP profile at /.well-known/ucp.',
  fix: 'Publish a UCP profile at /.well-known/ucp listing your commerce services.',
  evaluate: (a) => judge(a, 'ucp', () => outcome('passed', `UCP profile found${parseJsonObject(a.wellKnown.ucp!.body)?.ucp ? '' : ' (no ucp key)'}`, docEvidence(a.wellKnown.ucp, 'body'))),
});

export const ap2 = defineCheck({
  id: 'payments-ap2',
  name: 'Agent Payments Protocol (AP2)',
  layer: 'payments',
  tier: 'emerging',
  appliesTo: ALL_KINDS,
  description: 'The A2A agent card declares the AP2 extension.',
  fix: 'Declare the AP2 extension in your A2A agent card capabilities.extensions.',
  evaluate: (a) => judge(a, 'ap2', () => outcome('passed', `Agent card declares ${ap2Extension(a)}`, docEvidence(a.wellKnown.agentCard))),
});
