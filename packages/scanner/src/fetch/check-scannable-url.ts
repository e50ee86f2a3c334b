import { GuardedFetchError } from './errors';
import { LookupFn, resolvePublicAddress } from './resolve';

export type ScannableUrlResult =
  | { ok: true; url: URL }
  | { ok: false; code: 'bad_scheme' | 'invalid_url' | 'blocked_address' | 'dns'; reason: string };

export function parseHttpUrl(raw: string): { ok: true; url: URL } | { ok: false; code: 'bad_scheme' | 'invalid_url'; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, code: 'invalid_url', reason: `"${raw}" is not a valid URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, code: 'bad_scheme', reason: `Only http and https URLs can be scanned, not ${url.protocol.replace(':', '')}` };
  }
  if (url.username || url.password) {
    return { ok: false, code: 'invalid_url', reason: 'URLs with credentials cannot be scanned' };
  }
  return { ok: true, url };
}

/** The same rules the guarded fetch applies, answered up front so an API can refuse a URL before queueing it. */
export async function checkScannableUrl(
  raw: string,
  opts: { allowPrivateNetworks: boolean; lookup?: LookupFn },
): Promise<ScannableUrlResult> {
  const parsed = parseHttpUrl(raw);
  if (!parsed.ok) return parsed;
  try {
    await resolvePublicAddress(parsed.url.hostname, opts, parsed.url.href);
  } catch (error) {
    if (error instanceof GuardedFetchError && (error.code === 'blocked_address' || error.code === 'dns')) {
      return { ok: false, code: error.code, reason: error.message };
    }
    throw error;
  }
  return { ok: true, url: parsed.url };
}
