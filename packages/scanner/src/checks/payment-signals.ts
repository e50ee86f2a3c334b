import type { Artifacts, FetchedDoc } from '../gather/artifacts';
import { parseJsonObject } from '../util/json';
import { openApiSpecOf } from '../util/openapi-document';
import { isOk } from './define';

/**
 * Agent payment challenges as deployed: a 402 from the scanned URL itself, from the paid path its OpenAPI names, or
 * from a resource it links; and payment metadata declared in OpenAPI (`x-payment-info`).
 */

export interface X402Challenge {
  doc: FetchedDoc;
  /** Protocol version the challenge states (v2 in the PAYMENT-REQUIRED header, v1 in the JSON body). */
  version: number | null;
  /** The requirements decode and carry x402Version and an accepts list. */
  valid: boolean;
  where: 'header' | 'body';
  summary: string;
}

/** Every distinct 402 answer of the scan. */
export function paymentChallengeDocs(a: Artifacts): FetchedDoc[] {
  const seen = new Set<string>();
  const docs: FetchedDoc[] = [];
  for (const doc of [a.home, a.paymentProbe, ...(a.linkedPaymentProbes ?? [])]) {
    if (!doc || doc.status !== 402) continue;
    const key = doc.finalUrl ?? doc.url;
    if (seen.has(key)) continue;
    seen.add(key);
    docs.push(doc);
  }
  return docs;
}

/** x402 v2 "Transport: HTTP": base64 PaymentRequired in PAYMENT-REQUIRED; x402 v1 §5.1: the same object as the JSON body. */
export function x402Challenge(doc: FetchedDoc): X402Challenge | null {
  const header = doc.headers['payment-required'];
  if (header) {
    const decoded = decodeBase64Json(header);
    const valid = Boolean(decoded && typeof decoded.x402Version === 'number' && Array.isArray(decoded.accepts));
    return { doc, version: typeof decoded?.x402Version === 'number' ? decoded.x402Version : null, valid, where: 'header', summary: valid ? describeAccepts(decoded!) : 'a PAYMENT-REQUIRED header that does not decode to payment requirements' };
  }
  const body = parseJsonObject(doc.body);
  if (body && (body.x402Version !== undefined || Array.isArray(body.accepts))) {
    const valid = typeof body.x402Version === 'number' && Array.isArray(body.accepts);
    return { doc, version: typeof body.x402Version === 'number' ? body.x402Version : null, valid, where: 'body', summary: valid ? describeAccepts(body) : 'a JSON body without x402Version and accepts' };
  }
  return null;
}

export function x402Challenges(a: Artifacts): X402Challenge[] {
  return paymentChallengeDocs(a)
    .map(x402Challenge)
    .filter((c): c is X402Challenge => c !== null);
}

/** The Payment HTTP authentication scheme (MPP core, draft-ryan-httpauth-payment). */
export function paymentAuthChallenges(a: Artifacts): FetchedDoc[] {
  return paymentChallengeDocs(a).filter((d) => /(^|,)\s*Payment\s/i.test(d.headers['www-authenticate'] ?? ''));
}

export interface DeclaredPayment {
  method: string;
  path: string;
  protocols: string[];
  doc: FetchedDoc;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** MPP service discovery (draft-payment-discovery): operations carrying `x-payment-info` in the OpenAPI document. */
export function declaredPayments(a: Artifacts): DeclaredPayment[] {
  const found: DeclaredPayment[] = [];
  for (const doc of a.openapi) {
    const spec = isOk(doc) ? openApiSpecOf(doc) : null;
    const paths = spec?.paths;
    if (!paths || typeof paths !== 'object') continue;
    for (const [path, operations] of Object.entries(paths as Record<string, Record<string, unknown>>)) {
      if (!operations || typeof operations !== 'object') continue;
      for (const method of METHODS) {
        const info = (operations[method] as Record<string, unknown> | undefined)?.['x-payment-info'];
        if (!info || typeof info !== 'object') continue;
        found.push({ method: method.toUpperCase(), path, protocols: protocolNames((info as { protocols?: unknown }).protocols), doc });
      }
    }
  }
  return found;
}

/** `protocols` is written as ["mpp","x402"] or as [{"x402":{}}]; none named means the MPP default. */
function protocolNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .flatMap((p) => (typeof p === 'string' ? [p] : p && typeof p === 'object' ? Object.keys(p as object) : []))
    .map((p) => p.toLowerCase());
}

export function declaresX402(a: Artifacts): DeclaredPayment | undefined {
  return declaredPayments(a).find((d) => d.protocols.includes('x402'));
}

export function declaresMpp(a: Artifacts): DeclaredPayment | undefined {
  return declaredPayments(a).find((d) => d.protocols.length === 0 || d.protocols.some((p) => p === 'mpp' || p === 'payment'));
}

function decodeBase64Json(value: string): Record<string, unknown> | null {
  try {
    return parseJsonObject(Buffer.from(value.trim(), 'base64').toString('utf8'));
  } catch {
    return null;
  }
}

function describeAccepts(requirements: Record<string, unknown>): string {
  const accepts = requirements.accepts as Array<Record<string, unknown>>;
  const first = accepts[0];
  const parts = first ? [first.scheme, first.network, first.amount ?? first.maxAmountRequired].filter((v) => typeof v === 'string' || typeof v === 'number') : [];
  return `x402 v${String(requirements.x402Version)} with ${accepts.length} payment option(s)${parts.length > 0 ? `, e.g. ${parts.join(' ')}` : ''}`;
}
