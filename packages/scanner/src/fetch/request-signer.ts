import { createPrivateKey, generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { directoryResponseHeaders, signatureHeaders } from 'web-bot-auth';
import { Ed25519Signer } from 'web-bot-auth/crypto';

/**
 * Web Bot Auth (draft-meunier-web-bot-auth-architecture / draft-ietf-webbotauth-httpsig-protocol): every request the
 * scanner sends carries an RFC 9421 HTTP Message Signature (Ed25519, tag "web-bot-auth", created/expires, a nonce,
 * keyid = the RFC 7638 JWK thumbprint) over "@authority" and "signature-agent", so a site can tell our scanner from
 * someone borrowing its User-Agent. `Signature-Agent` names the origin that publishes our key directory at
 * /.well-known/http-message-signatures-directory. web-bot-auth 0.1.3 (Cloudflare's reference library) builds the
 * signature base; it signs the sf-string form of Signature-Agent, the form deployed verifiers read.
 */
export interface RequestSigner {
  /** The origin whose key directory holds our public key (sent, quoted, as Signature-Agent). */
  agent: string;
  /** The key's JWK thumbprint (RFC 7638), the signatures' keyid. */
  keyid: string;
  /** Signature-Agent, Signature-Input and Signature for one request (each redirect hop is signed anew). */
  headersFor(method: string, url: URL): Promise<Record<string, string>>;
  /** The directory's own response signature (tag "http-message-signatures-directory", over the request's "@authority";req). */
  directoryHeaders(requestUrl: string): Promise<Record<string, string>>;
  /** The public key as the directory lists it, its kid the JWK thumbprint. */
  publicKey: { kty: string; crv: string; x: string; kid: string };
}

/** How long a signature stays valid: long enough for a slow hop, short enough that a replay soon expires. */
const VALIDITY_MS = 60_000;

export async function createRequestSigner(options: { privateKey: string | JsonWebKey; agent: string }): Promise<RequestSigner> {
  const jwk = ed25519PrivateJwk(options.privateKey);
  const signer = await Ed25519Signer.fromJWK(jwk);
  const agent = new URL(options.agent).origin;
  const signatureAgent = `"${agent}"`;
  return {
    agent,
    keyid: signer.keyid,
    async headersFor(method, url) {
      const now = new Date();
      const headers = { 'signature-agent': signatureAgent };
      const signed = await signatureHeaders({ method, url: url.href, headers }, signer, { created: now, expires: new Date(now.getTime() + VALIDITY_MS) });
      return { 'signature-agent': signatureAgent, 'signature-input': signed['Signature-Input'], signature: signed.Signature };
    },
    async directoryHeaders(requestUrl) {
      const now = new Date();
      const signed = await directoryResponseHeaders(
        { request: { method: 'GET', url: requestUrl, headers: {} }, response: { status: 200, headers: {} } },
        [signer],
        { created: now, expires: new Date(now.getTime() + VALIDITY_MS) },
      );
      return { 'signature-input': signed['Signature-Input'], signature: signed.Signature };
    },
    publicKey: { kty: String(jwk.kty), crv: String(jwk.crv), x: String(jwk.x), kid: signer.keyid },
  };
}

/** An Ed25519 private key given as a JWK (object or JSON text) or as PKCS#8 PEM, as a private JWK. */
export function ed25519PrivateJwk(key: string | JsonWebKey): JsonWebKey {
  let parsed;
  try {
    parsed = typeof key === 'object' ? createPrivateKey({ key: key as never, format: 'jwk' }) : key.trim().startsWith('{') ? createPrivateKey({ key: JSON.parse(key), format: 'jwk' }) : createPrivateKey(key);
  } catch {
    throw new Error('The scanner signing key is neither an Ed25519 private JWK nor a PKCS#8 PEM private key');
  }
  if (parsed.asymmetricKeyType !== 'ed25519') throw new Error(`The scanner signing key must be Ed25519, not ${parsed.asymmetricKeyType}`);
  return parsed.export({ format: 'jwk' }) as JsonWebKey;
}

/** A new Ed25519 private key as a JWK, for a deployment's first start. */
export function generateSigningKey(): JsonWebKey {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as JsonWebKey;
}

export const SIGNATURE_DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';
export const SIGNATURE_DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';
