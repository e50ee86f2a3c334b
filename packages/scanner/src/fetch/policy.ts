import { DEFAULT_USER_AGENT } from '../version';
import type { LookupFn } from './resolve';
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
  /** Ports a public address may be fetched on, every redirect hop included; unset allows any. */
  publicPorts?: readonly number[];
  /** Web Bot Auth: when set, every request (each redirect hop) carries an HTTP Message Signature. */
  signer?: RequestSigner;
}

export type ResolvedFetchPolicy = Required<Omit<FetchPolicy, 'lookup' | 'publicPorts' | 'signer'>> & { lookup?: LookupFn; publicPorts?: readonly number[]; signer?: RequestSigner };

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
