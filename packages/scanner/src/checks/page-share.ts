import type { Artifacts } from '../gather/artifacts';
import { MIN_SAMPLE, type SampledPage } from '../gather/page-sample';
import type { CheckOutcome } from './types';
import { excerpt, outcome, unreachable } from './define';

type Verdict = 'passed' | 'warning' | 'failed';

/** The page's path (with its query), short enough to name ten of them in one excerpt. */
export function pagePath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** What a share says of the sampled pages it could not read (they are left out of it, never counted against the site). */
export function leftOut(unread: number): string {
  return unread > 0 ? ` (${unread} sampled page(s) could not be read and are left out)` : '';
}

/**
 * A page-level check over the whole sample: the home page's verdict plus the same judgment of every sampled page,
 * reported as a share ("7 of 10 pages serve content without JavaScript") with the pages named. All pass: passed;
 * the home page or most pages fail: failed; otherwise a warning. Pages we could not read are left out and counted.
 * A sample smaller than MIN_SAMPLE says so and is never worth more than a warning.
 */
export function sampleShare(a: Artifacts, home: CheckOutcome, judge: (page: SampledPage) => Verdict, phrase: string): CheckOutcome {
  if (!a.pages || (home.status !== 'passed' && home.status !== 'warning' && home.status !== 'failed')) return home;
  const homeUrl = a.home?.finalUrl ?? a.targetUrl;
  const judged: Array<{ url: string; verdict: Verdict }> = [{ url: homeUrl, verdict: home.status }];
  let unread = 0;
  for (const page of a.pages) {
    if (unreachable(page.doc, page.doc.url)) unread++;
    else judged.push({ url: page.doc.finalUrl ?? page.doc.url, verdict: judge(page) });
  }
  const passing = judged.filter((p) => p.verdict === 'passed');
  const failing = judged.filter((p) => p.verdict === 'failed');
  const lacking = judged.filter((p) => p.verdict !== 'passed');
  let status: Verdict = lacking.length === 0 ? 'passed' : home.status === 'failed' || failing.length * 2 > judged.length ? 'failed' : 'warning';
  let detail = `${passing.length} of ${judged.length} pages ${phrase}`;
  if (lacking.length > 0) detail += `; not ${lacking.slice(0, 3).map((p) => pagePath(p.url)).join(', ')}${lacking.length > 3 ? ` and ${lacking.length - 3} more` : ''}`;
  detail += leftOut(unread);
  detail += `. Home page: ${home.evidence.detail}`;
  if (judged.length < MIN_SAMPLE && unread > 0) {
    // Thin because of pages we could not read: the site may well have enough; that is ours to say, not its score.
    const { detail: _home, ...where } = home.evidence;
    return outcome('couldnt_check', `Only ${judged.length} of ${judged.length + unread} sampled pages could be read, fewer than ${MIN_SAMPLE}: too few to judge the site (${detail})`, where);
  }
  if (judged.length < MIN_SAMPLE) {
    detail = `${detail}. Only ${judged.length} page(s) could be sampled, fewer than ${MIN_SAMPLE}: too thin to judge a whole site, so this is at most a warning`;
    if (status === 'passed') status = 'warning';
  }
  const named = judged.map((p) => `${pagePath(p.url)} ${p.verdict}`).join(', ');
  const { detail: _home, ...where } = home.evidence;
  return outcome(status, excerpt(detail, 900), { ...where, excerpt: excerpt(`Pages: ${named}`, 480), ...(home.fix !== undefined ? { fix: home.fix } : {}) });
}
