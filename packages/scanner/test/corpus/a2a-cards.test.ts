import crypto from 'node:crypto';
import type { ScanResult } from '../../src';
import { canonicalJson } from '../../src/checks/discovery/agent-card-signature';
import { checkOf, startAndScanSites } from './index';
import type { RunningSite, SdkSiteOptions } from './index';
import { A2A_JSONRPC_ENDPOINT } from './sdk-servers';

/** A2A 1.0 agent cards (§8.2 well-known URI, §8.4 signing: JWS, RFC 7515, over the JCS-canonical card, RFC 8785). */
const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
const jwk = publicKey.export({ format: 'jwk' });

function card(origin: string): Record<string, unknown> {
  return {
    name: 'Trip agent',
    description: 'Plans trips',
    version: '2.1.0',
    supportedInterfaces: [{ url: `${origin}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'plan', name: 'Plan a trip', description: 'Plans a trip', tags: ['travel'] }],
  };
}

function signed(body: Record<string, unknown>, header: Record<string, unknown> = { jwk }): Record<string, unknown> {
  const protectedHeader = Buffer.from(JSON.stringify({ alg: 'EdDSA', typ: 'JOSE', ...header })).toString('base64url');
  const input = `${protectedHeader}.${Buffer.from(canonicalJson(body)).toString('base64url')}`;
  const signature = crypto.sign(null, Buffer.from(input), privateKey).toString('base64url');
  return { ...body, signatures: [{ protected: protectedHeader, signature }] };
}

const at = (make: (origin: string) => Record<string, unknown>): SdkSiteOptions => ({ mcpPath: null, routes: (origin) => ({ '/.well-known/agent-card.json': { body: JSON.stringify(make(origin)) }, '/a2a': A2A_JSONRPC_ENDPOINT }) });

const SITES: Record<string, SdkSiteOptions> = {
  'signed 1.0 card': at((o) => signed(card(o))),
  'card changed after signing': at((o) => ({ ...signed(card(o)), name: 'Someone else' })),
  '1.0 card with 0.3 leftovers': at((o) => ({ ...card(o), url: `${o}/a2a`, preferredTransport: 'JSONRPC', protocolVersion: '0.3.0' })),
  'signed, key by jku': {
    mcpPath: null,
    routes: (o) => ({
      '/.well-known/agent-card.json': { body: JSON.stringify(signed(card(o), { kid: 'k1', jku: `${o}/.well-known/jwks.json` })) },
      '/.well-known/jwks.json': { headers: { 'content-type': 'application/jwk-set+json' }, body: JSON.stringify({ keys: [{ ...jwk, kid: 'k0', x: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, { ...jwk, kid: 'k1' }] }) },
      '/a2a': A2A_JSONRPC_ENDPOINT,
    }),
  },
  'signed, key unreachable': at((o) => signed(card(o), { kid: 'k9', jku: `${o}/missing-keys.json` })),
  '0.3 card': at((o) => ({ name: 'Old agent', url: `${o}/a2a`, protocolVersion: '0.3.0', skills: [{ id: 'x' }] })),
};

describe('A2A 1.0 agent cards', () => {
  const sites = new Map<string, RunningSite>();
  const results = new Map<string, ScanResult>();
  beforeAll(() => startAndScanSites(SITES, sites, results));
  afterAll(() => Promise.all([...sites.values()].map((s) => s.close())));

  it('a 1.0 card whose embedded-key signature verifies passes and says so', () => {
    expect(checkOf(results.get('signed 1.0 card')!, 'a2a-agent-card')).toMatchObject({ status: 'passed', detail: expect.stringMatching(/A2A 1\.0.*the EdDSA signature verifies/) });
  });

  it('a key named by jku and kid is fetched from the JWK Set and verifies; a key we cannot get is not a failure', () => {
    expect(checkOf(results.get('signed, key by jku')!, 'a2a-agent-card')).toMatchObject({ status: 'passed', detail: expect.stringMatching(/verifies against the card with key k1 of the JWK Set at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json/) });
    expect(checkOf(results.get('signed, key unreachable')!, 'a2a-agent-card')).toMatchObject({ status: 'passed', detail: expect.stringContaining('could not be obtained, so it was not verified') });
  });

  it('a card changed after signing fails (§8.4)', () => {
    expect(checkOf(results.get('card changed after signing')!, 'a2a-agent-card')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/signature is not valid.*does not match/) });
  });

  it('leftover 0.3 fields are named with where 1.0 moved them', () => {
    const detail = checkOf(results.get('1.0 card with 0.3 leftovers')!, 'a2a-agent-card');
    expect(detail.status).toBe('warning');
    expect(detail.detail).toMatch(/url \(now supportedInterfaces\[\]\.url\), preferredTransport \(now supportedInterfaces\[\]\.protocolBinding\), protocolVersion/);
    expect(checkOf(results.get('0.3 card')!, 'a2a-agent-card')).toMatchObject({ status: 'warning', detail: expect.stringMatching(/A2A 0\.3 shape/) });
  });
});
