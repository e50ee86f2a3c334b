// Why a webhook URL is refused, in the words of webhooks. The rules are the scans' (scans/target.ts and the scanner's
// checkScannableUrl: http(s), no credentials, a web port, a public address), but their sentences speak of scanning;
// a subscriber is told about deliveries. A private address a name resolves to is never repeated: that would let
// anyone map internal DNS through this API.
import type { ScannableUrlResult } from '@arl/scanner';
import { SCANNABLE_PORTS } from '../scans/target';

const PORTS = `${SCANNABLE_PORTS.slice(0, -1).join(', ')} and ${SCANNABLE_PORTS[SCANNABLE_PORTS.length - 1]}`;

/** The refusal of a URL by its form alone (no network), or null when deliveries may be sent to it. */
export function webhookUrlRefusal(raw: string, options: { anyPort: boolean }): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return 'The webhook URL is not an absolute URL (such as https://hooks.example.com/arl).';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `Webhooks are delivered over http or https only, not ${url.protocol.replace(/:$/, '')}.`;
  }
  if (url.username || url.password) {
    return 'A webhook URL cannot carry credentials (user:password@): check the webhook-signature header of each delivery instead.';
  }
  if (!url.hostname) return 'The webhook URL has no host.';
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (!options.anyPort && !(SCANNABLE_PORTS as readonly number[]).includes(port)) {
    return `Port ${port} is not a web port; webhooks are delivered to ports ${PORTS} only.`;
  }
  return null;
}

/** The refusal after the name was looked up (the scanner's check, its own sentence replaced). */
export function webhookNetworkRefusal(check: Extract<ScannableUrlResult, { ok: false }>, host: string): string {
  switch (check.code) {
    case 'dns':
      return `The webhook URL's host ${host} could not be resolved (DNS), so nothing could be delivered to it.`;
    case 'blocked_address':
      return `Webhooks are delivered to public addresses only; the webhook URL's host ${host} is or resolves to a private, loopback, link-local or reserved address.`;
    default:
      return 'Webhooks are delivered to absolute http or https URLs only.';
  }
}
