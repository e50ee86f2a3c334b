import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { scan } from '../src';
import type { CheckStatus, ScanResult } from '../src';

/**
 * Real third-party servers from npm on loopback: an x402 paywall built with @x402/express (only the facilitator is a
 * stub, offline) and an A2A agent built with @a2a-js/sdk. Expected verdicts come from the standards, cited per test.
 */

const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';
const servers: http.Server[] = [];

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The facilitator is the only stub: it answers GET /supported (x402 v1 §7.3) so the resource server can start offline. */
function facilitatorStub(): http.RequestListener {
  return (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ kinds: [{ x402Version: 2, scheme: 'exact', network: 'eip155:84532' }], extensions: [], signers: {} }));
  };
}

const HOME = `<!doctype html><html><head><title>Forecasts for agents</title><meta name="description" content="Weather forecasts, paid per call."></head>
<body><h1>Forecasts</h1><p>Pay per call with x402, no account needed.</p><a href="/api/forecast">Forecast API</a> <a href="/docs">Docs</a></body></html>`;

async function startPaywall(facilitatorUrl: string): Promise<string> {
  const resourceServer = new x402ResourceServer(new HTTPFacilitatorClient({ url: facilitatorUrl })).register('eip155:84532', new ExactEvmScheme());
  const accepts = { scheme: 'exact', price: '$0.001', network: 'eip155:84532' as const, payTo: PAY_TO };
  const app = express();
  app.use(
    paymentMiddleware(
      {
        'GET /weather': { accepts, description: 'Current weather' },
        'GET /api/forecast': { accepts, description: 'Seven-day forecast' },
      },
      resourceServer,
    ),
  );
  app.get('/', (_req, res) => {
    res.type('html').send(HOME);
  });
  app.get('/weather', (_req, res) => {
    res.json({ temperature: 21 });
  });
  app.get('/api/forecast', (_req, res) => {
    res.json({ days: [] });
  });
  return listen(app);
}

/** x402 v1 has no maintained Node-20 server package without wallet SDKs; this answers exactly the v1 §5.1.1 example. */
function x402V1Paywall(): http.RequestListener {
  return (req, res) => {
    res.statusCode = 402;
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        x402Version: 1,
        error: 'X-PAYMENT header is required',
        accepts: [{ scheme: 'exact', network: 'base-sepolia', maxAmountRequired: '10000', asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', payTo: PAY_TO, resource: `http://${req.headers.host}${req.url}`, description: 'Premium data', mimeType: 'application/json', maxTimeoutSeconds: 60 }],
      }),
    );
  };
}

/** The A2A agent runs as a child process (see corpus/a2a-agent.cjs for why); one per file. */
let agentProcess: ChildProcess | undefined;
async function startA2aAgent(): Promise<string> {
  const child = spawn(process.execPath, [path.join(__dirname, 'corpus', 'a2a-agent.cjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  agentProcess = child;
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`the A2A agent exited with ${code}`)));
  });
  return (JSON.parse(line) as { url: string }).url;
}

const policy = { fetchPolicy: { allowPrivateNetworks: true } };
const statusOf = (result: ScanResult, id: string): CheckStatus | undefined => result.checks.find((c) => c.id === id)?.status;
const checkOf = (result: ScanResult, id: string) => result.checks.find((c) => c.id === id)!;

let paywall: string;
let v1: string;
let agent: string;
const results: Record<string, ScanResult> = {};

beforeAll(async () => {
  const facilitator = await listen(facilitatorStub());
  [paywall, v1, agent] = await Promise.all([startPaywall(facilitator), listen(x402V1Paywall()), startA2aAgent()]);
  const [paidUrl, home, v1Url, agentHome] = await Promise.all([
    scan(`${paywall}/weather`, policy),
    scan(`${paywall}/`, policy),
    scan(`${v1}/premium`, policy),
    scan(`${agent}/`, policy),
  ]);
  Object.assign(results, { paidUrl, home, v1Url, agentHome });
});

afterAll(async () => {
  if (agentProcess && agentProcess.exitCode === null) {
    const exited = new Promise((resolve) => agentProcess!.once('exit', resolve));
    agentProcess.stdin!.end();
    await exited;
  }
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

describe('x402 paywall (@x402/express)', () => {
  it('a scanned URL that itself answers 402 with a valid PAYMENT-REQUIRED header supports x402 v2', () => {
    // x402 v2, specs/transports-v2/http.md "Payment Required Signaling": HTTP 402 with a PAYMENT-REQUIRED header holding
    // the base64 PaymentRequired object (x402Version 2, accepts[]).
    const check = checkOf(results.paidUrl, 'payments-x402');
    expect(results.paidUrl.ending).toBe('finished');
    expect(check.status).toBe('passed');
    expect(check.evidence.detail).toMatch(/x402 v2 with 1 payment option\(s\), e\.g\. exact eip155:84532/);
    expect(check.evidence.header).toMatch(/^payment-required: /);
  });

  it('an account-less paid API is not asked for OAuth metadata', () => {
    // x402 v1 §2 "Core Payment Flow": request, 402 with requirements, paid retry; no account or API key is involved,
    // so there is nothing to sign in to (RFC 8414 metadata is for sites with authorization).
    expect(statusOf(results.paidUrl, 'oauth-discovery')).toBe('not_applicable');
    expect(statusOf(results.home, 'oauth-discovery')).toBe('not_applicable');
  });

  it('a home page that links to a paid resource supports x402 through that link', () => {
    // Same signal (transports-v2/http.md) found one link away: /api/forecast answers 402 with PAYMENT-REQUIRED.
    const check = checkOf(results.home, 'payments-x402');
    expect(check.status).toBe('passed');
    expect(check.evidence.url).toBe(`${paywall}/api/forecast`);
    expect(results.home.layers.find((l) => l.id === 'payments')!.score).toBe(100);
  });

  it('x402 v1: a 402 whose JSON body carries x402Version and accepts', () => {
    // x402 v1 §5.1 PaymentRequirementsResponse: x402Version, error and accepts[] in the JSON payload.
    const check = checkOf(results.v1Url, 'payments-x402');
    expect(check.status).toBe('passed');
    expect(check.evidence.detail).toMatch(/x402 v1 with 1 payment option\(s\), e\.g\. exact base-sepolia 10000/);
  });
});

describe('A2A agent (@a2a-js/sdk)', () => {
  it('the agent card the SDK serves counts, although the host shows no product surface', () => {
    // A2A v1.0 §8.1: A2A servers MUST make an Agent Card available; §8.2: at https://{server_domain}/.well-known/agent-card.json.
    const check = checkOf(results.agentHome, 'a2a-agent-card');
    expect(check.status).toBe('passed');
    expect(check.evidence.detail).toBe('Agent card "Helper agent" with 1 skill(s)');
  });
});
