// What `npm run demo` shows of watch and act: a webhook receiver on loopback subscribed to a persona before its scan,
// the first signed delivery it got (headers and body, the signature checked with the standardwebhooks library as a
// receiver would), and that persona's badge with the snippet to paste.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { WebhookService } from './service';

interface Delivery {
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface DemoWatch {
  /** Waits (bounded) for the first delivery and prints it; then prints the badge. */
  report(print: (line: string) => void, leaderboardUrl: string): Promise<void>;
  close(): Promise<void>;
}

export async function startDemoWatch(webhooks: WebhookService, domain: string): Promise<DemoWatch> {
  const received: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  const { subscription, secret } = await webhooks.create({ url, domain, events: ['scan.ended', 'score.changed', 'grade.changed', 'check.changed'], description: 'npm run demo' });

  return {
    async report(print, leaderboardUrl) {
      const deadline = Date.now() + 15_000;
      while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      print('');
      print(`Webhook: subscription ${subscription.id} of ${domain} -> ${url}`);
      const first = received[0];
      if (!first) {
        print('  no delivery arrived within 15 s');
      } else {
        let verified = 'signature verified (standardwebhooks)';
        try {
          new Webhook(secret).verify(first.body, first.headers as Record<string, string>);
        } catch {
          verified = 'SIGNATURE DID NOT VERIFY';
        }
        print(`  ${received.length} deliveries received; the first, as received (${verified}):`);
        print(`  POST /webhook`);
        for (const name of ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature']) print(`  ${name}: ${String(first.headers[name])}`);
        print(`  ${first.body}`);
      }
      const badge = `${leaderboardUrl}/v1/leaderboard/companies/${domain}/badge.svg?community=include`;
      const res = await fetch(badge);
      const svg = await res.text();
      print('');
      print(`Badge (${res.status}, ${res.headers.get('content-type')}, ETag ${res.headers.get('etag')}): ${badge}`);
      print(`  title: ${/<title>([^<]*)<\/title>/.exec(svg)?.[1] ?? '(none)'}`);
      print(`  Markdown: [![Agent readiness of ${domain}](${badge})](${leaderboardUrl}/companies/${domain}?community=include)`);
      print(`Compare two of them: ${leaderboardUrl}/compare?domains=${domain},typical-saas.test&community=include`);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
