import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import { PaymentRequiredV1Schema } from '@x402/core/schemas';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { startNodeProcess, type RunningServer } from './processes';

/** Real x402 and A2A servers from npm for the corpus; only the x402 facilitator is a stub (offline). */

const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';

async function listen(handler: http.RequestListener): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Answers GET /supported (x402 v1 §7.3) so the resource server can start without the network. */
const facilitatorStub: http.RequestListener = (_req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ kinds: [{ x402Version: 2, scheme: 'exact', network: 'eip155:84532' }], extensions: [], signers: {} }));
};

export const PAYWALL_HOME = `<!doctype html><html><head><title>Forecasts for agents</title><meta name="description" content="Weather forecasts, paid per call."></head>
<body><h1>Forecasts</h1><p>Pay per call with x402, no account needed.</p><a href="/api/forecast">Forecast API</a> <a href="/docs">Docs</a></body></html>`;

/**
 * An @x402/express paywall: GET /weather and GET /api/forecast are paid ($0.001 on eip155:84532), the home page is
 * free and links to /api/forecast. `url` is the paid /weather; the home page is `${origin}/`.
 */
export async function startX402Paywall(): Promise<RunningServer> {
  const facilitator = await listen(facilitatorStub);
  const resourceServer = new x402ResourceServer(new HTTPFacilitatorClient({ url: facilitator.origin })).register('eip155:84532', new ExactEvmScheme());
  const accepts = { scheme: 'exact', price: '$0.001', network: 'eip155:84532' as const, payTo: PAY_TO };
  const app = express();
  app.use(paymentMiddleware({ 'GET /weather': { accepts, description: 'Current weather' }, 'GET /api/forecast': { accepts, description: 'Seven-day forecast' } }, resourceServer));
  app.get('/', (_req, res) => {
    res.type('html').send(PAYWALL_HOME);
  });
  app.get('/weather', (_req, res) => {
    res.json({ temperature: 21 });
  });
  app.get('/api/forecast', (_req, res) => {
    res.json({ days: [] });
  });
  const site = await listen(app);
  return { url: `${site.origin}/weather`, origin: site.origin, close: async () => Promise.all([site.close(), facilitator.close()]).then(() => undefined) };
}

/**
 * x402 v1's server package (x402-express 1.x) pulls wallet SDKs (Coinbase CDP, Solana kit, wagmi) and Express 4, so
 * this answers the v1 §5.1.1 example instead, parsed by the x402 project's own v1 schema (@x402/core) before it is sent.
 */
export async function startX402V1Paywall(): Promise<RunningServer> {
  const site = await listen((req, res) => {
    const requirements = PaymentRequiredV1Schema.parse({
      x402Version: 1,
      error: 'X-PAYMENT header is required',
      accepts: [{ scheme: 'exact', network: 'base-sepolia', maxAmountRequired: '10000', asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', payTo: PAY_TO, resource: `http://${req.headers.host}${req.url}`, description: 'Premium data', mimeType: 'application/json', maxTimeoutSeconds: 60 }],
    });
    res.statusCode = 402;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(requirements));
  });
  return { url: `${site.origin}/premium`, origin: site.origin, close: site.close };
}

/** An @a2a-js/sdk agent (its card at /.well-known/agent-card.json, JSON-RPC at /a2a/jsonrpc) in its own process. */
/** A real A2A agent; `cardRpcUrl` makes its card name another interface URL than the one it serves. */
export async function startA2aAgent(options: { cardRpcUrl?: string } = {}): Promise<RunningServer> {
  const env: Record<string, string> = options.cardRpcUrl ? { A2A_CARD_RPC_URL: options.cardRpcUrl } : {};
  const started = await startNodeProcess(path.join(__dirname, 'a2a-agent.cjs'), [], { env, ready: /A2A agent listening on (http:\/\/\S+)/ });
  const origin = started.match[1];
  return { url: `${origin}/`, origin, close: started.stop };
}
