import { DEFAULT_USER_AGENT } from '../version';
import type { LookupFn } from './resolve';
import type { TxtResolver } from './dns-txt';
import type { RequestSigner } from './request-signer';

export interface FetchPolicy {
  allowPrivateNetworks: boolean;
  requestTimeoutMs?: number;
  scanBudgetMs?: number;
  maxResponseBytes?: number;
  perHostConcurrency?: number;
  maxRedirects?: number;
  userAgent?: string;
  lookup?: LookupFn;
  /**
   * DNS TXT lookups (agent discovery at _agent.<host>): the system resolver when unset. A policy with its own `lookup`
   * (tests, the sandbox, `--resolve`) or `loopbackOnly` and no `resolveTxt` looks nothing up: its names are not sent
   * to the real DNS behind its back. Tests inject a fake here, never the network.
   */
  resolveTxt?: TxtResolver;
  /** Ports a public address may be fetched on, every redirect hop included; unset allows any. */
  publicPorts?: readonly number[];
  /** Web Bot Auth: when set, every request (each redirect hop) carries an HTTP Message Signature. */
  signer?: RequestSigner;
  /**
   * Fetch loopback addresses only, every redirect hop included (the corpus command and tests: a file served on
   * loopback may name a sitemap or a key set anywhere, and none of that is fetched). Pair it with a `lookup` that
   * resolves nothing but loopback names, so no name is even looked up elsewhere.
   */
  loopbackOnly?: boolean;
  /**
   * Certificate authorities (PEM) trusted for https in addition to Node's bundled roots: a site signed by one of them
   * verifies like any other, and every other check (host name, expiry, the bundled roots) stays as it is. For tests
   * and the census bench's simulated internet (the server's SCAN_EXTRA_CA_FILE) only: a production scanner trusts
   * what a browser trusts.
   */
  extraCaPem?: string;
}

export type ResolvedFetchPolicy = Required<Omit<FetchPolicy, 'lookup' | 'resolveTxt' | 'publicPorts' | 'signer' | 'loopbackOnly' | 'extraCaPem'>> & {
  lookup?: LookupFn;
  resolveTxt?: TxtResolver;
  publicPorts?: readonly number[];
  signer?: RequestSigner;
  loopbackOnly?: boolean;
  extraCaPem?: string;
};

export const DEFAULT_FETCH_POLICY: ResolvedFetchPolicy = {
  allowPrivateNetworks: false,
  requestTimeoutMs: 8000,
  scanBudgetMs: 30000,
  maxResponseBytes: 2 * 1024 * 1024,
  perHostConcurrency: 4,
  maxRedirects: 5,
  userAgent: DEFAULT_USER_AGENT,
};

export function resolveFetchPolicy(policy: Partial<FetchPolicy> = {}): ResolvedFetchPolicy {
  const merged: ResolvedFetchPolicy = { ...DEFAULT_FETCH_POLICY };
  for (const [key, value] of Object.entries(policy)) {
    if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value;
  }
  merged.allowPrivateNetworks = policy.allowPrivateNetworks === true;
  return merged;
}
