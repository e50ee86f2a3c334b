import crypto from 'node:crypto';
import type { FetchedDoc } from '../../gather/artifacts';
import { parseJsonObject } from '../../util/json';
import { jwsHeader } from '../../gather/agent-card';

/**
 * A2A 1.0 §8.4 (Agent Card Signing): each entry of `signatures` is a JWS (RFC 7515) over the card canonicalized with
 * JCS (RFC 8785), the `signatures` member left out. The key travels in the protected header (`jwk`) or sits in a JWK
 * Set named by `jku` (fetched during gathering, picked by `kid`); a key we could not obtain is reported as not
 * verified, never as bad.
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

/** The key a JWS header designates: embedded (jwk), or in the fetched JWK Set (jku) by kid, or its only key. */
function keyFor(header: { jwk?: unknown; jku?: unknown; kid?: unknown }, keySet: FetchedDoc | null): { jwk: unknown; from: string } | null {
  if (header.jwk && typeof header.jwk === 'object') return { jwk: header.jwk, from: 'the embedded key' };
  if (typeof header.jku !== 'string' || !keySet || keySet.status !== 200) return null;
  const keys = (parseJsonObject(keySet.body)?.keys ?? []) as Array<{ kid?: unknown }>;
  if (!Array.isArray(keys)) return null;
  const key = typeof header.kid === 'string' ? keys.find((k) => k?.kid === header.kid) : keys.length === 1 ? keys[0] : undefined;
  return key ? { jwk: key, from: `key ${typeof header.kid === 'string' ? header.kid : ''} of the JWK Set at ${header.jku}`.replace('key  of', 'the key of') } : null;
}

export function verifyAgentCardSignature(card: Record<string, unknown>, signature: unknown, keySet: FetchedDoc | null = null): SignatureVerdict {
  const sig = signature as { protected?: unknown; signature?: unknown } | null;
  if (!sig || typeof sig.protected !== 'string' || typeof sig.signature !== 'string') return { status: 'invalid', detail: 'a signature lacks "protected" or "signature"' };
  const header = jwsHeader(sig) as { alg?: unknown; jwk?: unknown; jku?: unknown; kid?: unknown } | null;
  if (!header) return { status: 'invalid', detail: 'the protected header is not base64url JSON' };
  const found = keyFor(header, keySet);
  if (!found) {
    return { status: 'unverifiable', detail: `the key (${typeof header.jku === 'string' ? `jku ${header.jku}` : typeof header.kid === 'string' ? `kid ${header.kid}` : 'not named'}) could not be obtained, so it was not verified` };
  }
  const { signatures: _omitted, ...unsigned } = card;
  const input = Buffer.from(`${sig.protected}.${b64url(canonicalJson(unsigned))}`);
  const raw = Buffer.from(sig.signature, 'base64url');
  try {
    const key = crypto.createPublicKey({ key: found.jwk as crypto.JsonWebKey, format: 'jwk' });
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
    return ok ? { status: 'valid', detail: `the ${alg} signature verifies against the card with ${found.from}` } : { status: 'invalid', detail: `the ${alg} signature does not match the card (changed after signing?)` };
  } catch (error) {
    return { status: 'invalid', detail: `the embedded key is unusable: ${error instanceof Error ? error.message.slice(0, 120) : 'error'}` };
  }
}
