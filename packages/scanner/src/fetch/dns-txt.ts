import { promises as dns } from 'node:dns';
import { isIpLiteral, stripBrackets } from './address-policy';
import type { ResolvedFetchPolicy } from './policy';

/** Node's dns.promises.resolveTxt shape: one array of character strings per TXT record. */
export type TxtResolver = (name: string) => Promise<string[][]>;

/** What a scan may ask of the DNS for TXT records, bound to its timeout and signal; `skip` says why it asks nothing. */
export interface TxtLookup {
  resolve: TxtResolver | null;
  /** Why names of this scan are not looked up at all (a policy with its own name resolution and no TXT). */
  skip: string | null;
  /** Names the system resolver is never asked (a special-use name has no public DNS); null when any name may be asked. */
  specialUse: ((hostname: string) => boolean) | null;
}

/** DNS error codes that mean "no such record", not a failure (NXDOMAIN, NODATA). */
export const ABSENT_CODES = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'NODATA']);

/**
 * RFC 6761 §6 special-use names (localhost, .test, .invalid, .example, .local) and RFC 9476 .alt: the system resolver
 * has nothing public to say about them, so a scan of a sandbox persona never sends its name to the real DNS.
 */
export function isSpecialUseName(hostname: string): boolean {
  const name = stripBrackets(hostname).replace(/\.$/, '').toLowerCase();
  return /(^|\.)(localhost|test|invalid|example|local|alt|onion)$/.test(name) || isIpLiteral(name);
}

/**
 * The scan's TXT lookups, through the fetch policy: the injected `resolveTxt`, else the system resolver (node:dns, the
 * host's configured servers: never a resolver of our own choosing), each bounded by the request timeout and the scan's
 * signal. A policy that resolves names its own way (`lookup`, `loopbackOnly`) without a `resolveTxt` asks nothing.
 */
export function createTxtLookup(policy: Pick<ResolvedFetchPolicy, 'resolveTxt' | 'lookup' | 'loopbackOnly' | 'requestTimeoutMs'>, signal?: AbortSignal): TxtLookup {
  if (!policy.resolveTxt && (policy.lookup || policy.loopbackOnly)) {
    return { resolve: null, skip: 'this scan resolves names through its own lookup, which answers no TXT records', specialUse: null };
  }
  const base: TxtResolver = policy.resolveTxt ?? systemResolveTxt(policy.requestTimeoutMs);
  const resolve: TxtResolver = (name) => withinTime(base(name), policy.requestTimeoutMs, signal, name);
  return { resolve, skip: null, specialUse: policy.resolveTxt ? null : isSpecialUseName };
}

/** One Resolver per lookup, cancelled when it outlasts its time, so no query outlives the scan. */
function systemResolveTxt(timeoutMs: number): TxtResolver {
  return async (name) => {
    const resolver = new dns.Resolver({ timeout: Math.max(100, Math.floor(timeoutMs / 2)), tries: 2 });
    const timer = setTimeout(() => resolver.cancel(), timeoutMs);
    try {
      return await resolver.resolveTxt(name);
    } finally {
      clearTimeout(timer);
    }
  };
}

function withinTime<T>(work: Promise<T>, timeoutMs: number, signal: AbortSignal | undefined, name: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const fail = (code: string, message: string): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(Object.assign(new Error(message), { code }));
    };
    const onAbort = (): void => fail('ECANCELLED', `The lookup of ${name} was cancelled`);
    const timer = setTimeout(() => fail('ETIMEOUT', `No DNS answer for ${name} within ${timeoutMs} ms`), timeoutMs);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
