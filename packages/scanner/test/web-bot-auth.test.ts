import { createHash, createPublicKey, verify as verifySignature } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestSigner, generateSigningKey, scan, SIGNATURE_DIRECTORY_MEDIA_TYPE, SIGNATURE_DIRECTORY_PATH } from '../src';
import type { RequestSigner } from '../src';
import { ROOMY_DEADLINES } from './fixtures/deadlines';

/**
 * Web Bot Auth, checked by an independent verifier: a loopback site reads Signature-Input, fetches the key directory
 * named by Signature-Agent over HTTP, rebuilds the RFC 9421 signature base by hand and verifies it with node:crypto.
 */

async function listen(handler: http.RequestListener): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  server.keepAliveTimeout = 200;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** RFC 7638 thumbprint of an Ed25519 JWK: SHA-256 over the required members in lexicographic order. */
const thumbprint = (jwk: { crv: string; kty: string; x: string }): string =>
  createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x })).digest('base64url');

type Verdict = { ok: true; keyid: string; tag: string; created: number; expires: number } | { ok: false; why: string };

/** RFC 9421 §3.2 by hand, for the two components Web Bot Auth signs. */
async function verifyRequest(req: http.IncomingMessage): Promise<Verdict> {
  const input = req.headers['signature-input'];
  const signature = req.headers.signature;
  const agent = req.headers['signature-agent'];
  if (typeof input !== 'string' || typeof signature !== 'string' || typeof agent !== 'string') return { ok: false, why: 'unsigned' };
  const match = /^sig1=(\((.*?)\)(.*))$/.exec(input);
  const sig = /^sig1=:([A-Za-z0-9+/=]+):$/.exec(signature);
  if (!match || !sig) return { ok: false, why: `unparseable ${input}` };
  const components = match[2].split(' ').map((c) => c.replace(/"/g, ''));
  const params = Object.fromEntries([...match[3].matchAll(/;([a-z]+)=("([^"]*)"|\d+)/g)].map((m) => [m[1], m[3] ?? Number(m[2])]));
  const values: Record<string, string> = { '@authority': req.headers.host!, 'signature-agent': agent };
  const base = [...components.map((c) => `"${c}": ${values[c]}`), `"@signature-params": ${match[1]}`].join('\n');
  // The key comes from the directory the request names, fetched over HTTP like any verifier would.
  const directoryUrl = new URL(SIGNATURE_DIRECTORY_PATH, JSON.parse(agent) as string);
  const directory = (await (await fetch(directoryUrl)).json()) as { keys: Array<{ kty: string; crv: string; x: string; kid: string }> };
  const key = directory.keys.find((k) => k.kid === params.keyid);
  if (!key) return { ok: false, why: `no key ${params.keyid} in the directory` };
  if (thumbprint(key) !== params.keyid) return { ok: false, why: 'keyid is not the JWK thumbprint' };
  const ok = verifySignature(null, Buffer.from(base), createPublicKey({ key: { kty: key.kty, crv: key.crv, x: key.x }, format: 'jwk' }), Buffer.from(sig[1], 'base64'));
  return ok ? { ok, keyid: String(params.keyid), tag: String(params.tag), created: Number(params.created), expires: Number(params.expires) } : { ok: false, why: `bad signature over\n${base}` };
}

const HOME = `<!doctype html><html><head><title>Signed Co</title><meta name="description" content="A site that lets verified bots in."></head><body><h1>Signed Co</h1><p>${'Verified agents are welcome here, anonymous ones are challenged. '.repeat(5)}</p></body></html>`;

describe('Web Bot Auth: every scanner request is signed', () => {
  let signer: RequestSigner;
  let directory: { origin: string; close: () => Promise<void> };
  beforeAll(async () => {
    const privateKey = generateSigningKey();
    let agent = '';
    directory = await listen((req, res) => {
      if (req.url !== SIGNATURE_DIRECTORY_PATH) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': SIGNATURE_DIRECTORY_MEDIA_TYPE }).end(JSON.stringify({ keys: [signer.publicKey] }));
    });
    agent = directory.origin;
    signer = await createRequestSigner({ privateKey, agent });
  });
  afterAll(() => directory.close());

  it('a site that challenges unsigned requests lets the signed scan in, verifies every signature, and the evidence says so', async () => {
    const verdicts: Verdict[] = [];
    const seen: Record<string, string | undefined> = {};
    const site = await listen((req, res) => {
      void verifyRequest(req).then((verdict) => {
        if (req.url === '/' && verdict.ok) Object.assign(seen, { input: req.headers['signature-input'], signature: req.headers.signature, agent: req.headers['signature-agent'] });
        verdicts.push(verdict);
        if (!verdict.ok) {
          res.writeHead(403, { 'content-type': 'text/html', 'cf-mitigated': 'challenge' }).end('<!doctype html><title>Just a moment...</title>');
          return;
        }
        if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HOME);
        else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      });
    });
    try {
      const result = await scan(`${site.origin}/`, { fetchPolicy: { allowPrivateNetworks: true, ...ROOMY_DEADLINES, signer } });
      expect(result.ending).toBe('finished');
      const bad = verdicts.filter((v) => !v.ok);
      // Exactly one request went out unsigned on purpose: the comparison that tells a site's rule about signatures.
      expect(bad).toEqual([{ ok: false, why: 'unsigned' }]);
      for (const v of verdicts.filter((x): x is Extract<Verdict, { ok: true }> => x.ok)) {
        expect({ tag: v.tag, keyid: v.keyid, window: v.expires - v.created }).toEqual({ tag: 'web-bot-auth', keyid: signer.keyid, window: 60 });
      }
      expect(verdicts.length).toBeGreaterThan(10);
      expect(seen.agent).toBe(`"${directory.origin}"`);
      expect(seen.input).toMatch(/^sig1=\("@authority" "signature-agent"\);created=\d+;keyid="[A-Za-z0-9_-]{43}";alg="ed25519";expires=\d+;nonce="[^"]+";tag="web-bot-auth"$/);
      const challenge = result.checks.find((c) => c.id === 'no-bot-challenge')!;
      expect(challenge.status).toBe('passed');
      expect(challenge.evidence.detail).toMatch(/An unsigned request met a Cloudflare challenge \(cf-mitigated: challenge, HTTP 403\); the same request signed with Web Bot Auth got HTTP 200/);
    } finally {
      await site.close();
    }
  });

  it('the directory response is signed too (tag http-message-signatures-directory, over the request\'s @authority)', async () => {
    const url = `${directory.origin}${SIGNATURE_DIRECTORY_PATH}`;
    const headers = await signer.directoryHeaders(url);
    const match = /^binding0=(\((.*?)\)(.*))$/.exec(headers['signature-input'])!;
    expect(match[1]).toMatch(/^\("@authority";req\);created=\d+;keyid="[^"]+";alg="ed25519";expires=\d+;tag="http-message-signatures-directory"$/);
    const base = `"@authority";req: ${new URL(url).host}\n"@signature-params": ${match[1]}`;
    const sig = /^binding0=:([^:]+):$/.exec(headers.signature)![1];
    const { kty, crv, x } = signer.publicKey;
    expect(verifySignature(null, Buffer.from(base), createPublicKey({ key: { kty, crv, x }, format: 'jwk' }), Buffer.from(sig, 'base64'))).toBe(true);
  });
});
