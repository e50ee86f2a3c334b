// "Does a read show this change yet?": the company's read (operation 3) and its leaderboard entry (operation 1 with
// q = its domain), both with community=include, polled over HTTP until both answer the new score. Used by the
// freshness prober (its own process) and by growth's per-change cost (the target itself, with nothing else running).
import { wallNow } from './live-figures';

/** A change no read has shown after this long counts as unseen (at this lag) by the freshness prober. */
export const PATIENCE_MS = 15_000;

export interface Change {
  domain: string;
  score: number;
  /** wallNow() when the scan-ending transaction committed. */
  committedAt: number;
}

async function shows(base: string, change: Change, timeoutMs: number): Promise<boolean> {
  const domain = encodeURIComponent(change.domain);
  // AbortSignal.timeout takes whole milliseconds only (a fraction throws RangeError, which the poll loop once read as
  // "not visible yet" until its last, 100 ms poll: every lag came out at the 15 s patience).
  const signal = AbortSignal.timeout(Math.max(100, Math.ceil(timeoutMs)));
  const [company, page] = await Promise.all([
    fetch(`${base}/v1/leaderboard/companies/${domain}?community=include`, { signal }).then((r) => r.json() as Promise<{ score?: number }>),
    fetch(`${base}/v1/leaderboard?q=${domain}&community=include&limit=50`, { signal }).then(
      (r) => r.json() as Promise<{ items?: Array<{ score: number; company: { domain: string } }> }>,
    ),
  ]);
  const entry = page.items?.find((e) => e.company.domain === change.domain);
  return company.score === change.score && entry?.score === change.score;
}

/**
 * Polls until a read shows the change; returns the time from its commit to the arrival of that read (ms), or null
 * after `patienceMs`. The pause between polls starts at `pauseMs` and grows to 50 ms, so that many changes waiting
 * at once (20 a second, seconds each on a slow server) do not become a load of their own beside the measured one.
 */
export async function waitVisible(base: string, change: Change, patienceMs: number, pauseMs: number): Promise<number | null> {
  for (let pause = pauseMs; ; pause = Math.min(50, pause * 1.5)) {
    // A read still unanswered when the patience runs out is abandoned (the change counts as unseen).
    const visible = await shows(base, change, change.committedAt + patienceMs - wallNow()).catch((err: unknown) => {
      // A read that failed or timed out is "not yet"; anything else is a fault of this code and must not pass as one.
      if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError' || err instanceof TypeError || err instanceof SyntaxError)) return false;
      throw err;
    });
    const at = wallNow();
    if (visible) return Math.max(0, at - change.committedAt);
    if (at - change.committedAt > patienceMs) return null;
    if (pause > 0) await new Promise((r) => setTimeout(r, pause));
  }
}
