// Turns what the pages showed (and what the agent claimed) into an outcome and one sentence of cause.
import { causeForFetchError } from '@arl/scanner';
import { pathOf } from './evidence';
import type { PageView } from './page/page-view';
import type { BrowsingSession } from './session';
import type { DriverVerdict, JourneyEvidence, JourneyOutcome } from './types';

export interface Judgement {
  outcome: JourneyOutcome;
  cause: string;
  /** Evidence added by the judgement itself (the agent's answer). */
  extraEvidence: JourneyEvidence[];
}

export function judge(session: BrowsingSession, verdict: DriverVerdict, requestTimeoutMs: number): Judgement {
  const task = session.task;
  const evidence = session.evidence;
  const extraEvidence: JourneyEvidence[] = [];
  const claim = verdict.claim;
  if (claim?.answer.trim()) {
    const citedUrl = claim.urls.find((u) => session.pageFor(u)?.access === 'ok');
    extraEvidence.push({ kind: 'agent_answer', ...(citedUrl ? { url: citedUrl } : {}), detail: claim.answer.trim().slice(0, 500) });
  }

  if (task.succeeded(evidence)) {
    return { outcome: 'succeeded', cause: successCause(evidence), extraEvidence };
  }
  // The model may find what the detectors do not recognise; it is believed only when it cites a page it really read.
  if (claim?.success) {
    const cited = claim.urls.filter((u) => session.pageFor(u)?.access === 'ok');
    if (cited.length > 0) return { outcome: 'succeeded', cause: `The agent reported success citing ${cited.map(pathOf).join(', ')}.`, extraEvidence };
  }

  const unreachable = networkCause(session.pages, requestTimeoutMs);
  if (unreachable) return { outcome: 'failed', cause: unreachable, extraEvidence };

  const wall = wallOf(session.pages);
  if (wall) return { ...wall, extraEvidence };
  if (verdict.driverFailure) return { outcome: 'failed', cause: verdict.driverFailure, extraEvidence };

  const why = claim?.success
    ? 'the agent claimed success without citing a page it had read'
    : verdict.stoppedBecause ?? (claim ? 'the agent gave up' : 'the agent stopped');
  const scriptOnly = session.pages.some((p) => p.access === 'ok' && p.scriptOnly) && session.pages.every((p) => p.access !== 'ok' || p.scriptOnly || p.links.length === 0);
  const extra = scriptOnly ? '; the site renders only with JavaScript' : '';
  return { outcome: 'failed', cause: capitalise(`${task.missing} after ${session.stepsTaken} pages: ${why}${extra}.`), extraEvidence };
}

/** No page answered at all: the network cause, in the words a scan uses for the same failure. */
function networkCause(pages: readonly PageView[], requestTimeoutMs: number): string | null {
  if (pages.length === 0 || pages.some((p) => p.status !== null || !p.fetchError)) return null;
  const first = pages[0];
  let host = first.url;
  try {
    host = new URL(first.url).host;
  } catch {
    // an unparseable URL is named as given
  }
  return causeForFetchError(first.fetchError!.code, host, first.fetchError!.message, requestTimeoutMs);
}

/** The site stopped the agent: the first page was a wall, or most pages were. */
function wallOf(pages: readonly PageView[]): { outcome: JourneyOutcome; cause: string } | null {
  if (pages.length === 0) return null;
  const first = pages[0];
  const blocked = pages.filter((p) => p.access === 'blocked');
  const signIn = pages.filter((p) => p.access === 'sign_in');
  const pick = (kind: 'blocked' | 'sign_in'): { outcome: JourneyOutcome; cause: string } => {
    const sample = (kind === 'blocked' ? blocked : signIn)[0] ?? first;
    return kind === 'blocked'
      ? { outcome: 'blocked', cause: `The site refused the agent (${sample.accessReason ?? 'blocked'} at ${pathOf(sample.url)}).` }
      : { outcome: 'sign_in_required', cause: `The site requires signing in (${sample.accessReason ?? 'sign-in wall'} at ${pathOf(sample.url)}).` };
  };
  if (first.access === 'blocked') return pick('blocked');
  if (first.access === 'sign_in') return pick('sign_in');
  if (blocked.length * 2 > pages.length) return pick('blocked');
  if (signIn.length * 2 > pages.length) return pick('sign_in');
  return null;
}

function successCause(evidence: readonly JourneyEvidence[]): string {
  const byUrl = new Map<string, Set<string>>();
  for (const e of evidence) {
    const where = e.url ? pathOf(e.url) : 'the site';
    byUrl.set(where, (byUrl.get(where) ?? new Set()).add(e.kind.replace(/_/g, ' ')));
  }
  const parts = [...byUrl].slice(0, 3).map(([where, kinds]) => `${[...kinds].join(', ')} at ${where}`);
  return capitalise(`found ${parts.join('; ')}.`);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
