import { CHECK_CATALOG } from '../checks/catalog';
import { runChecks } from '../checks/run-checks';
import { isOk } from '../checks/define';
import { isSignInWall } from '../checks/signals';
import { checkScannableUrl } from '../fetch/check-scannable-url';
import { GuardedFetchError } from '../fetch/errors';
import { createGuardedFetch } from '../fetch/guarded-fetch';
import { createTxtLookup } from '../fetch/dns-txt';
import type { FetchPolicy } from '../fetch/policy';
import { resolveFetchPolicy } from '../fetch/policy';
import { Artifacts, emptyArtifacts } from '../gather/artifacts';
import { DocFetcher } from '../gather/doc-fetcher';
import { gatherMcpTarget, gatherWebsite } from '../gather/gather';
import { gatherMcpSession, uiResourceUriOf } from '../gather/mcp-session';
import { browserUserAgent, HTML_ACCEPT, ROBOTS_ACCEPT } from '../gather/user-agents';
import { gradeFor, scoreChecks } from '../scoring/score';
import { LAYER_ORDER, LAYER_WEIGHTS, REFUSAL_SCORE_CAP } from '../scoring/weights';
import { summarize } from '../scoring/summary';
import type { CheckResult, ScanEnding, ScanLogger, ScanResult, TargetKind } from '../types';
import { summarizeHtml } from '../util/html-summary';
import { CATALOG_VERSION } from '../version';
import { blockOf, failOnBlocks } from '../gather/block-signals';
import { DEFAULT_MAX_PAGES } from '../gather/page-sample';
import { judgeSoftNotFound } from '../gather/soft-404';
import { causeForBlockedHome, causeForFetchError, causeForRefusal, causeForUnreadHome } from './causes';
import { describeRefusal, refusalInWords, siteRefusal } from '../checks/access/site-refusal';
import { siteNameOf } from './site-name';

export const SCAN_PHASES = Object.freeze(['resolving', 'fetching_home', 'detecting_kind', 'gathering', 'checking', 'scoring'] as const);
export type ScanPhase = (typeof SCAN_PHASES)[number];

export interface ScanOptions {
  signal?: AbortSignal;
  onProgress?: (step: string) => void;
  fetchPolicy?: Partial<FetchPolicy>;
  logger?: ScanLogger;
  /** Pages sampled at most for page-level checks, the home page included (default 10, SCAN_MAX_PAGES). */
  maxPages?: number;
}

/** The one-line summary of a site that refuses AI agents: its layers would describe only the scraps we could read. */
const REFUSAL_SUMMARY = 'Refuses AI agents, in robots.txt and in its answers';
const INTERRUPTED_CAUSE = 'The scan was cancelled before it finished.';
/** Shown when our own code threw: the site is not to blame, so there is no score, low or otherwise. */
export const OUR_FAILURE_CAUSE = 'The scan stopped because of an error in the scanner itself, not in the site; it was not scored.';
/** After the budget runs out, lanes get this long to turn their aborted fetches into data before checks run without them. */
const BUDGET_GRACE_MS = 250;

/** Never throws for target problems: every way a scan can go wrong becomes an ending with a cause. */
export async function scan(url: string, options: ScanOptions = {}): Promise<ScanResult> {
  const started = Date.now();
  const policy = resolveFetchPolicy(options.fetchPolicy);
  const userSignal = options.signal;
  const budget = new AbortController();
  const budgetTimer = setTimeout(() => budget.abort(new GuardedFetchError('timeout', `The scan budget of ${policy.scanBudgetMs} ms ran out`)), policy.scanBudgetMs);
  const signal = userSignal ? AbortSignal.any([userSignal, budget.signal]) : budget.signal;
  // Hard budget: whatever a lane is still waiting for (a dripping body, a hung MCP stream), the scan moves on.
  const givenUp = new Promise<void>((resolve) => {
    const stop = (): void => void setTimeout(resolve, userSignal?.aborted ? 0 : BUDGET_GRACE_MS).unref?.();
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
  const withinBudget = <T>(work: Promise<T>): Promise<T | undefined> => Promise.race([work, givenUp.then(() => undefined)]);
  let kind: TargetKind = 'website';
  let finalUrl: string | null = null;

  const end = (ending: ScanEnding, cause: string | null, extra: Partial<ScanResult> = {}): ScanResult => ({
    url,
    finalUrl,
    kind,
    ending,
    cause,
    score: null,
    grade: null,
    summary: null,
    siteName: null,
    checks: [],
    layers: LAYER_ORDER.map((id) => ({ id, weight: LAYER_WEIGHTS[id], score: null })),
    catalogVersion: CATALOG_VERSION,
    durationMs: Date.now() - started,
    ...extra,
  });
  const progress = (step: ScanPhase): void => {
    try {
      options.onProgress?.(step);
    } catch (error) {
      options.logger?.warn({ error }, 'onProgress threw');
    }
  };

  let closeConnections = (): void => undefined;
  try {
    progress('resolving');
    if (userSignal?.aborted) return end('interrupted', INTERRUPTED_CAUSE);
    const checked = await checkScannableUrl(url, { allowPrivateNetworks: policy.allowPrivateNetworks, lookup: policy.lookup });
    if (!checked.ok) {
      return end('failed', checked.code === 'dns' || checked.code === 'blocked_address' ? causeForFetchError(checked.code, hostOf(url), checked.reason, policy.requestTimeoutMs) : checked.reason);
    }
    const target = checked.url.href;
    // Kept-alive connections per host for this scan only, closed when it ends (finally below).
    const fetch = createGuardedFetch({ ...policy, signal, reuseConnections: true });
    closeConnections = fetch.close;
    const fetcher = new DocFetcher(fetch, { userAgent: policy.userAgent, signed: policy.signer !== undefined });
    // MCP sessions see a WAF's answer as an unreachable server, not as a broken handshake.
    const sessionFetch = failOnBlocks(fetch);
    const ctx = { fetcher, fetch: sessionFetch, signal, requestTimeoutMs: policy.requestTimeoutMs, userAgent: policy.userAgent, signed: policy.signer !== undefined, maxPages: Math.max(1, Math.floor(options.maxPages ?? DEFAULT_MAX_PAGES)), txt: createTxtLookup(policy, signal) };

    progress('fetching_home');
    const home = await fetcher.get(target, { headers: { 'user-agent': browserUserAgent(policy.userAgent), accept: HTML_ACCEPT } });
    if (userSignal?.aborted) return end('interrupted', INTERRUPTED_CAUSE);
    if (home.status === null) {
      const code = home.error?.code ?? 'network';
      if (code === 'aborted') return end('interrupted', INTERRUPTED_CAUSE);
      return end('failed', causeForFetchError(code, checked.url.host, home.error?.message ?? '', policy.requestTimeoutMs));
    }
    finalUrl = home.finalUrl;
    // Headers arrived but the page did not: judging a half-read page would blame the site for our timeout.
    if (home.error && home.error.code !== 'too_large') return end('failed', causeForUnreadHome(home.error.code, checked.url.host, policy.requestTimeoutMs));
    const artifacts: Artifacts = emptyArtifacts('website', target);
    artifacts.home = home;
    // A challenge or a rate limit answered instead of the home page. A WAF's word is not the site's: unless the site
    // refuses AI agents itself (its robots.txt here, its answers to AI agents once gathered), nothing we could check
    // says anything about the site, so it is not ranked. With that refusal the scan goes on and is scored
    // (checks/access/site-refusal.ts).
    const homeBlock = blockOf(home);
    if (homeBlock) {
      artifacts.robots = await fetcher.get(new URL('/robots.txt', target).href, { headers: { accept: ROBOTS_ACCEPT } });
      if (userSignal?.aborted) return end('interrupted', INTERRUPTED_CAUSE);
      if (!refusalInWords(artifacts)) return end('failed', causeForBlockedHome(checked.url.host, homeBlock.reason));
    }

    progress('detecting_kind');
    const homeIsPage = home.status < 400 && /html/i.test(home.contentType ?? '');
    // A challenge page is the WAF's, not the site's home page: its links and text are not read as the site's.
    if (!homeBlock && (homeIsPage || home.body.length > 0)) artifacts.homeHtml = /html/i.test(home.contentType ?? '') || /<html/i.test(home.body) ? summarizeHtml(home.body, home.finalUrl ?? target) : null;
    if (!homeBlock && (!homeIsPage || /\/(mcp|sse)\/?$/i.test(checked.url.pathname))) {
      const session = await withinBudget(gatherMcpSession(target, { fetch: sessionFetch, signal, timeoutMs: policy.requestTimeoutMs, source: 'target' }));
      // A handshake that failed after the endpoint answered in JSON-RPC is a broken MCP server, not a website.
      if (session && (session.initialize.ok || session.auth.required || session.initialize.spokeJsonRpc)) {
        artifacts.mcp = session;
        kind = session.tools?.items.some((t) => uiResourceUriOf(t)?.startsWith('ui://')) ? 'mcp_app' : 'mcp_server';
        artifacts.kind = kind;
      }
    }
    if (userSignal?.aborted) return end('interrupted', INTERRUPTED_CAUSE);
    options.logger?.debug({ url, kind, homeStatus: home.status }, 'target kind detected');

    progress('gathering');
    // A website's found documents are then held against what it answers for a path that cannot exist (soft 404s).
    const gatherAll = async (): Promise<void> => {
      if (kind !== 'website') return gatherMcpTarget(ctx, artifacts);
      await gatherWebsite(ctx, artifacts);
      await judgeSoftNotFound(fetcher, artifacts);
    };
    await withinBudget(gatherAll());
    if (userSignal?.aborted) return end('interrupted', INTERRUPTED_CAUSE);

    options.logger?.debug({ url, requests: fetcher.seen.length, failedRequests: fetcher.seen.filter((d) => d.status === null).length }, 'evidence gathered');
    // The site's own refusal (its words and its answers) ranks it last: scored, and held at REFUSAL_SCORE_CAP. Words
    // without answers that refuse agents leave a blocked home page what it was: the WAF's word, not ranked.
    const refusal = kind === 'website' ? siteRefusal(artifacts) : null;
    if (homeBlock && !refusal) return end('failed', causeForBlockedHome(checked.url.host, homeBlock.reason));
    progress('checking');
    const checks: CheckResult[] = runChecks(CHECK_CATALOG, artifacts, options.logger);

    progress('scoring');
    const scored = scoreChecks(checks);
    const siteName = siteNameOf(artifacts);
    if (signInRequired(artifacts)) {
      return end('sign_in_required', signInCause(artifacts), { checks, layers: scored.layers.map((l) => ({ ...l, score: null })), siteName });
    }
    const score = refusal && scored.score !== null ? Math.min(scored.score, REFUSAL_SCORE_CAP) : scored.score;
    const grade = score === null ? scored.grade : gradeFor(score);
    const cause = refusal ? causeForRefusal(checked.url.host, describeRefusal(refusal), REFUSAL_SCORE_CAP) : null;
    return end('finished', cause, { checks, layers: scored.layers, score, grade, summary: refusal ? REFUSAL_SUMMARY : summarize(scored.layers), siteName });
  } catch (error) {
    if (userSignal?.aborted) return end('interrupted', INTERRUPTED_CAUSE);
    // Target problems are data by now; an exception here is ours, and a site never pays for it with a score.
    try {
      options.logger?.warn({ error, url }, 'scan stopped by an error of the scanner');
    } catch {
      // the logger itself may be what failed
    }
    return end('interrupted', OUR_FAILURE_CAUSE);
  } finally {
    clearTimeout(budgetTimer);
    closeConnections();
  }
}

/** Nothing public: the home page is a login wall and no other agent-facing document is readable. */
function signInRequired(a: Artifacts): boolean {
  if (a.kind !== 'website') return Boolean(a.mcp?.auth.required && !a.mcp.initialize.ok);
  if (!isSignInWall(a.home, a.homeHtml)) return false;
  const publicDocs = [a.llmsTxt, a.pricing].filter((d) => isOk(d) && !isSignInWall(d, null) && !/\/(login|signin|sign-in)/i.test(d.finalUrl ?? ''));
  return publicDocs.length === 0 && a.mcp?.initialize.ok !== true;
}

function signInCause(a: Artifacts): string {
  if (a.kind !== 'website') return `The MCP server at ${a.mcp?.endpoint} requires OAuth sign-in and exposes no public tools.`;
  return `Every page of ${new URL(a.targetUrl).host} we tried asks to sign in (${a.home?.status} at ${a.home?.finalUrl}).`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
