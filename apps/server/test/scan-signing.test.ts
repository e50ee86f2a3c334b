// Web Bot Auth through the real pipeline: the leaderboard host publishes the scanner's key directory (signed), and
// a scan's requests verify against it with an independent verifier (node:crypto over a hand-built RFC 9421 base).
import { createHash, createPublicKey, verify as verifySignature } from 'node:crypto';
import { startSandbox, type Persona, type SandboxRequest, type SandboxResponse } from '@arl/sandbox';
import { startScanTestServer, type ScanTestServer } from './support/scan-harness';

const DIRECTORY = '/.well-known/http-message-signatures-directory';
type Jwk = { kty: string; crv: string; x: string; kid: string };

const thumbprint = (jwk: Jwk): string => createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x })).digest('base64url');

/** Verifies one signature (label `label`) over the given component values, against a directory's keys. */
function verifyWith(keys: Jwk[], label: string, input: string, signature: string, values: Record<string, string>): string | null {
  const match = new RegExp(`^${label}=(\\((.*?)\\)(.*))$`).exec(input);
  const sig = new RegExp(`^${label}=:([A-Za-z0-9+/=]+):$`).exec(signature);
  if (!match || !sig) return `unparseable: ${input}`;
  const keyid = /;keyid="([^"]+)"/.exec(match[3])?.[1];
  const key = keys.find((k) => k.kid === keyid);
  if (!key) return `no key ${keyid}`;
  if (thumbprint(key) !== key.kid) return 'kid is not the JWK thumbprint';
  const base = [...match[2].split(' ').map((c) => `${c}: ${values[c]}`), `"@signature-params": ${match[1]}`].join('\n');
  const publicKey = createPublicKey({ key: { kty: key.kty, crv: key.crv, x: key.x }, format: 'jwk' });
  return verifySignature(null, Buffer.from(base), publicKey, Buffer.from(sig[1], 'base64')) ? null : `bad signature over ${base}`;
}

let t: ScanTestServer;
const verdicts: Array<string | null> = [];
let sentAgent: string | undefined;

/** A site that challenges what it cannot verify and serves what it can. */
async function guarded(req: SandboxRequest, ok: SandboxResponse): Promise<SandboxResponse> {
  const { 'signature-input': input, signature, 'signature-agent': agent } = req.headers;
  if (typeof input !== 'string' || typeof signature !== 'string' || typeof agent !== 'string') {
    verdicts.push('unsigned');
    return { status: 403, headers: { 'content-type': 'text/html', 'cf-mitigated': 'challenge' }, body: '<title>Just a moment...</title>' };
  }
  sentAgent = agent;
  // The keys come over HTTP from the leaderboard host, as a site's verifier would fetch them.
  const { keys } = (await (await fetch(`${t.leaderboardUrl}${DIRECTORY}`)).json()) as { keys: Jwk[] };
  const problem = verifyWith(keys, 'sig1', input, signature, { '"@authority"': String(req.headers.host), '"signature-agent"': agent });
  verdicts.push(problem);
  return problem ? { status: 403, headers: { 'content-type': 'text/plain' }, body: problem } : ok;
}

const HOME = `<!doctype html><html><head><title>Signed Site</title><meta name="description" content="Verified bots only."></head><body><h1>Signed Site</h1><p>${'Only verified agents read this page, others meet a challenge. '.repeat(5)}</p></body></html>`;
const signedSite = {
  name: 'signed-site',
  hostname: 'signed-site.test',
  path: '/',
  expected: { kind: 'website', ending: 'finished', grades: [] },
  description: 'Serves only requests whose Web Bot Auth signature verifies against the scanner key directory.',
  routes: { '/': (req: SandboxRequest) => guarded(req, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: HOME }) },
  notFound: (req: SandboxRequest) => guarded(req, { status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>Not found</h1>' }),
} as unknown as Persona;

beforeAll(async () => {
  t = await startScanTestServer({ sandbox: await startSandbox({ personas: [signedSite] }) });
});
afterAll(async () => {
  await t.close();
  await t.sandbox.close();
});

test('the key directory: a JWK Set whose kid is the JWK thumbprint, its response signed over the authority asked', async () => {
  const res = await fetch(`${t.leaderboardUrl}${DIRECTORY}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/http-message-signatures-directory\+json/);
  const { keys } = (await res.json()) as { keys: Jwk[] };
  expect(keys).toEqual([{ kty: 'OKP', crv: 'Ed25519', x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), kid: thumbprint(keys[0]) }]);
  const input = res.headers.get('signature-input')!;
  expect(input).toMatch(/tag="http-message-signatures-directory"/);
  expect(verifyWith(keys, 'binding0', input, res.headers.get('signature')!, { '"@authority";req': new URL(t.leaderboardUrl).host })).toBeNull();
});

test('every request of a scan carries a signature that verifies against the published directory', async () => {
  const { data } = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf('signed-site' as never) } });
  const scan = await t.waitForEnd(data!.scan.id);
  expect(scan.ending).toBe('finished');
  expect(sentAgent).toBe(`"${new URL(t.config.publicUrl).origin}"`);
  // One request goes out unsigned on purpose (to tell whether the site challenges unsigned requests); all others verify.
  expect(verdicts.filter((v) => v !== null)).toEqual(['unsigned']);
  expect(verdicts.filter((v) => v === null).length).toBeGreaterThan(10);
});
