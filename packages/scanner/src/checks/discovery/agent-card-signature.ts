import crypto from 'node:crypto';

/**
 * A2A 1.0 §8.4 (Agent Card Signing): each entry of `signatures` is a JWS (RFC 7515) over the card canonicalized with
 * JCS (RFC 8785), the `signatures` member left out. We verify the ones whose key travels in the protected header
 * (`jwk`); a key named only by `jku` or `kid` lives elsewhere and is reported as not verified, never as bad.
 */
export type SignatureVerdict = { status: 'valid' | 'invalid' | 'unverifiable'; detail: string };

/** RFC 8785: members sorted by UTF-16 code units, ECMAScript number and string serialization, no whitespace. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const b64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

export function verifyAgentCardSignature(card: Record<string, unknown>, signature: unknown): SignatureVerdict {
  const sig = signature as { protected?: unknown; signature?: unknown } | null;
  if (!sig || typeof sig.protected !== 'string' || typeof sig.signature !== 'string') return { status: 'invalid', detail: 'a signature lacks "protected" or "signature"' };
  let header: { alg?: unknown; jwk?: unknown; jku?: unknown; kid?: unknown };
  try {
    header = JSON.parse(Buffer.from(sig.protected, 'base64url').toString('utf8')) as typeof header;
  } catch {
    return { status: 'invalid', detail: 'the protected header is not base64url JSON' };
  }
  if (!header.jwk || typeof header.jwk !== 'object') {
    return { status: 'unverifiable', detail: `the key is named by ${typeof header.jku === 'string' ? `jku ${header.jku}` : typeof header.kid === 'string' ? `kid ${header.kid}` : 'nothing'}, not embedded, so it was not verified` };
  }
  const { signatures: _omitted, ...unsigned } = card;
  const input = Buffer.from(`${sig.protected}.${b64url(canonicalJson(unsigned))}`);
  const raw = Buffer.from(sig.signature, 'base64url');
  try {
    const key = crypto.createPublicKey({ key: header.jwk as crypto.JsonWebKey, format: 'jwk' });
    const alg = String(header.alg);
    const ok =
      alg === 'EdDSA' || alg === 'Ed25519'
        ? crypto.verify(null, input, key, raw)
        : /^ES(256|384|512)$/.test(alg)
          ? crypto.verify(`sha${alg.slice(2)}`, input, { key, dsaEncoding: 'ieee-p1363' }, raw)
          : /^RS(256|384|512)$/.test(alg)
            ? crypto.verify(`sha${alg.slice(2)}`, input, key, raw)
            : /^PS(256|384|512)$/.test(alg)
              ? crypto.verify(`sha${alg.slice(2)}`, input, { key, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(alg.slice(2)) / 8 }, raw)
              : null;
    if (ok === null) return { status: 'unverifiable', detail: `algorithm ${alg} is not one we verify` };
    return ok ? { status: 'valid', detail: `the ${alg} signature verifies against the card` } : { status: 'invalid', detail: `the ${alg} signature does not match the card (changed after signing?)` };
  } catch (error) {
    return { status: 'invalid', detail: `the embedded key is unusable: ${error instanceof Error ? error.message.slice(0, 120) : 'error'}` };
  }
}
