/**
 * The real-ecosystem corpus: third-party MCP software from npm and small servers on the official SDK, run on loopback.
 * Each start* helper returns a RunningServer; scanCorpus scans it with private networks allowed (loopback only).
 */
import { scan } from '../../src';
import type { ScanResult } from '../../src';
import { ROOMY_DEADLINES } from '../fixtures/deadlines';
import { startSdkSite } from './sdk-servers';
import type { RunningSite, SdkSiteOptions } from './sdk-servers';

export { freePort, packageBin, startNodeProcess } from './processes';
export type { RunningServer } from './processes';
export { startBasicMcpApp, startOAuthMockServer, startServerEverything } from './reference-servers';
export { DEFAULT_TOOL, mcpServerFor, startSdkSite } from './sdk-servers';
export type { CannedResponse, RunningSite, SdkMcpOptions, SdkSiteOptions, WireTool } from './sdk-servers';
export { startOAuthProtectedMcp } from './oauth-protected-mcp';
export { startA2aAgent, startX402Paywall, startX402V1Paywall } from './payment-and-agent-servers';
export type { OAuthProtectedMcp, OAuthProtectedMcpOptions } from './oauth-protected-mcp';

/**
 * The corpus tests are about verdicts, not time, and scan several servers at once: deadlines well beyond the normal
 * (the scan budget only catches a hang), so that a loaded machine (CI runs every package's tests side by side on 2
 * cores) cannot turn a verdict into a timeout. The request timeout is 15 s, not ROOMY_DEADLINES' 60 s: the "other
 * JSON-RPC service" fixtures (mcp-discovery, mcp-rules) answer every POST with one canned error (id 1), and the
 * scan's MCP handshake with them ends at the request timeout: each such test takes that long.
 */
export function scanCorpus(url: string): Promise<ScanResult> {
  return scan(url, { fetchPolicy: { allowPrivateNetworks: true, requestTimeoutMs: 15_000, scanBudgetMs: ROOMY_DEADLINES.scanBudgetMs } });
}

/** The status and detail of one check, for assertions that print something useful when they fail. */
export function checkOf(result: ScanResult, id: string): { id: string; status: string; detail: string } {
  const check = result.checks.find((c) => c.id === id);
  if (!check) throw new Error(`No check ${id} in the result`);
  return { id, status: check.status, detail: check.evidence.detail };
}

/**
 * Starts one SDK site per named definition and scans each (at the URL `target` picks, the home page by default), all
 * at once; fills the given maps so a describe block can share them.
 */
export async function startAndScanSites(
  definitions: Record<string, SdkSiteOptions>,
  sites: Map<string, RunningSite>,
  results: Map<string, ScanResult>,
  target: (site: RunningSite) => string = (site) => site.url,
): Promise<void> {
  const names = Object.keys(definitions);
  const started = await Promise.all(names.map((name) => startSdkSite(definitions[name])));
  names.forEach((name, i) => sites.set(name, started[i]));
  const scanned = await Promise.all(started.map((site) => scanCorpus(target(site))));
  names.forEach((name, i) => results.set(name, scanned[i]));
}
