import type { Artifacts } from '../../gather/artifacts';
import { parseJsonObject } from '../../util/json';
import type { CheckOutcome } from '../types';
import { ALL_KINDS, defineCheck, docEvidence, outcome, undecided } from '../define';
import { ap2Extension, commerceDocs, hasCommerce, PaymentProtocol, paymentProtocols } from '../signals';
import { declaresMpp, declaresX402, paymentAuthChallenges, x402Challenges } from '../payment-signals';

const NAMES: Record<PaymentProtocol, string> = { x402: 'x402', 'payment-auth': 'the Payment auth scheme', acp: 'ACP', ucp: 'UCP', ap2: 'AP2' };

/** Any one protocol satisfies the layer: the others become not applicable instead of failing. */
function judge(a: Artifacts, protocol: PaymentProtocol, found: () => CheckOutcome): CheckOutcome {
  if (!hasCommerce(a)) return undecided(commerceDocs(a), 'whether the site sells anything') ?? outcome('not_applicable', 'No commerce was detected, so agent payments do not apply');
  const present = paymentProtocols(a);
  if (present.has(protocol)) return found();
  // A discovery document we could not read may hold this very protocol.
  const unread = undecided(commerceDocs(a), `whether the site supports ${NAMES[protocol]}`);
  if (unread) return unread;
  if (present.size > 0) return outcome('not_applicable', `Agent payments are already covered by ${[...present].map((p) => NAMES[p]).join(', ')}`);
  return outcome('failed', `The site sells something but supports no agent payment protocol (looked for x402, Payment auth, ACP, UCP, AP2)`, { url: a.paymentProbe?.url ?? a.origin });
}

function judgeX402(a: Artifacts): CheckOutcome {
  const challenges = x402Challenges(a);
  const valid = challenges.find((c) => c.valid);
  const shown = valid ?? challenges[0];
  if (shown) {
    const where = shown.doc.url === a.targetUrl || shown.doc === a.home ? 'The scanned URL' : shown.doc.finalUrl ?? shown.doc.url;
    const header = shown.doc.headers['payment-required'];
    const evidence = { ...docEvidence(shown.doc, shown.where === 'body' ? 'body' : undefined), header: header ? `payment-required: ${header.slice(0, 80)}` : undefined };
    if (valid) return outcome('passed', `${where} answers 402 with ${valid.summary}`, evidence);
    return outcome('warning', `${where} answers 402 with ${shown.summary}`, evidence);
  }
  const declared = declaresX402(a)!;
  return outcome('warning', `OpenAPI declares x402 for ${declared.method} ${declared.path} (x-payment-info), but no live 402 challenge was seen`, docEvidence(declared.doc));
}

function judgePaymentAuth(a: Artifacts): CheckOutcome {
  const live = paymentAuthChallenges(a)[0];
  if (live) return outcome('passed', `402 with a Payment challenge at ${live.finalUrl ?? live.url}`, { ...docEvidence(live), header: `www-authenticate: ${live.headers['www-authenticate']}` });
  const declared = declaresMpp(a)!;
  return outcome('warning', `OpenAPI declares a payment for ${declared.method} ${declared.path} (x-payment-info), but no live Payment challenge was seen`, docEvidence(declared.doc));
}

export const x402 = defineCheck({
  id: 'payments-x402',
  name: 'x402 payment challenge',
  layer: 'payments',
  tier: 'emerging',
  appliesTo: ALL_KINDS,
  description:
    'A paid endpoint answers 402 with x402 payment requirements: v2 in a base64 PAYMENT-REQUIRED header (x402 v2, Transport: HTTP), v1 as a JSON body with x402Version and accepts (x402 v1 §5.1). Found at the scanned URL itself, the paid paths its OpenAPI names (a 402 response or x-payment-info), its /.well-known/x402 resources, or API links on its home page.',
  fix: 'Answer unpaid calls to paid endpoints with 402 and x402 payment requirements; document the 402 response in OpenAPI so agents find it.',
  evaluate: (a) => judge(a, 'x402', () => judgeX402(a)),
});

export const paymentAuthScheme = defineCheck({
  id: 'payments-http-auth',
  name: '"Payment" HTTP authentication scheme',
  layer: 'payments',
  tier: 'emerging',
  appliesTo: ALL_KINDS,
  description:
    'A 402 challenge with WWW-Authenticate: Payment ... (the Machine Payments Protocol, draft-ryan-httpauth-payment); OpenAPI operations carrying x-payment-info (MPP service discovery, draft-payment-discovery) are probed and count as declared.',
  fix: 'Send WWW-Authenticate: Payment id=..., method=..., request=... with 402 responses, and describe paid operations with x-payment-info in OpenAPI.',
  evaluate: (a) => judge(a, 'payment-auth', () => judgePaymentAuth(a)),
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
