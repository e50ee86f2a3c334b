import { createGuardedFetch, DEFAULT_FETCH_POLICY, DEFAULT_USER_AGENT } from '@arl/scanner';
import { judge } from './judge';
import { BrowsingSession } from './session';
import { TASKS } from './tasks';
import { DEFAULT_BUDGETS, type JourneyResult, type RunJourneyOptions } from './types';

/**
 * The agent presents itself as the scanner plus a user-fetch agent token, so a site treats it as it would treat an
 * AI assistant browsing for a person (the scanner's own per-agent views use the same pattern).
 */
export const JOURNEY_USER_AGENT = `${DEFAULT_USER_AGENT} ChatGPT-User/1.0 (journey: an AI agent browsing for a user)`;

/**
 * Runs one journey to its end. Resolves with the outcome whatever the site does (walls, errors, budgets); rejects
 * only when `signal` is aborted (with its reason) or on a bug.
 */
export async function runJourney(options: RunJourneyOptions): Promise<JourneyResult> {
  const task = TASKS[options.task];
  if (!task) throw new TypeError(`Unknown journey task ${JSON.stringify(options.task)}`);
  const budgets = { ...DEFAULT_BUDGETS, ...Object.fromEntries(Object.entries(options.budgets ?? {}).filter(([, v]) => v !== undefined)) };
  const clock = options.clock ?? (() => new Date());
  const callerSignal = options.signal ?? new AbortController().signal;
  const signal = AbortSignal.any([callerSignal, AbortSignal.timeout(budgets.timeMs)]);
  const started = performance.now();
  const userAgent = options.fetchPolicy?.userAgent ?? JOURNEY_USER_AGENT;
  const fetch = createGuardedFetch({ ...options.fetchPolicy, userAgent, scanBudgetMs: budgets.timeMs, signal });
  const session = new BrowsingSession({ fetch, task, startUrl: options.startUrl, budgets, signal, callerSignal, userAgent, clock, onStep: options.onStep });

  const verdict = await options.driver.run({ session, task, startUrl: options.startUrl, signal });
  if (callerSignal.aborted) throw callerSignal.reason;
  const judgement = judge(session, verdict, options.fetchPolicy?.requestTimeoutMs ?? DEFAULT_FETCH_POLICY.requestTimeoutMs);
  if (session.steps[session.steps.length - 1]?.action !== 'finish') await session.finish(judgement.cause);
  return {
    task: options.task,
    driver: options.driver.name,
    outcome: judgement.outcome,
    cause: judgement.cause,
    steps: session.steps,
    evidence: [...session.evidence, ...judgement.extraEvidence],
    durationMs: Math.round(performance.now() - started),
    bytesRead: session.bytesRead,
  };
}
