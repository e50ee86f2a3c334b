import { blockOf } from '../../gather/block-signals';
import { REFUSAL_SCORE_CAP } from '../../scoring/weights';
import { signingDifference } from '../../gather/ua-comparison';
import { findChallengeMarkers, type HtmlSummary } from '../../util/html-summary';
import { sampleShare } from '../page-share';
import { defineCheck, docEvidence, isOk, looksLikeHtml, outcome, unreachable, WEBSITE } from '../define';
import { isSignInWall } from '../signals';
import { describeRefusal, siteRefusal } from './site-refusal';

const BLOCKING = new Set([401, 403, 406, 429, 451, 503]);

export const aiAgentsNotBlocked = defineCheck({
  id: 'ai-agents-not-blocked',
  name: 'AI agents get the same page as browsers',
  layer: 'access',
  tier: 'required',
  appliesTo: WEBSITE,
  description: `The home page fetched with AI agent user agents (ClaudeBot, OAI-SearchBot, ChatGPT-User) answers like it does for a browser, not 403/429/503. A challenge in front of every page is a WAF's word, not the site's, and such a scan is not ranked; but when the site's own robots.txt refuses every AI search and user-fetch agent and every AI agent's request is refused too (signed with Web Bot Auth or not), this fails, the scan is scored, and the score is held at ${REFUSAL_SCORE_CAP}: a site cannot leave the ranking by blocking the scanner.`,
  fix: 'Let AI agent user agents through your WAF / bot-management rules (at least the user-fetch agents such as ChatGPT-User and Claude-User).',
  evaluate(a) {
    const browser = unreachable(a.home, 'the home page');
    if (browser) {
      // A challenge in front of everything says nothing by itself; alongside the site's own robots.txt refusal it does.
      const refusal = siteRefusal(a);
      if (refusal) return outcome('failed', `The site refuses AI agents: ${describeRefusal(refusal)}`, docEvidence(a.agentViews[0]?.doc ?? a.home, 'body'));
      return browser;
    }
    // A rate limit met during the scan is load, not a policy against agents: that view says nothing.
    const views = a.agentViews.filter((v) => v.doc.status !== null && !v.doc.error && blockOf(v.doc)?.kind !== 'rate_limit');
    if (views.length === 0) return unreachable(a.agentViews[0]?.doc ?? null, 'the home page as an AI agent')!;
    const browserStatus = a.home!.status!;
    const blocked = views.filter((v) => BLOCKING.has(v.doc.status!) && v.doc.status !== browserStatus);
    if (blocked.length > 0) {
      const first = blocked[0];
      return outcome(blocked.length === views.length ? 'failed' : 'warning', `${blocked.map((v) => `${v.agent} got ${v.doc.status}`).join(', ')} while a browser got ${browserStatus}`, docEvidence(first.doc, 'body'));
    }
    if (browserStatus >= 500) return outcome('warning', `The home page fails for everyone (HTTP ${browserStatus}), so agents get nothing either`, docEvidence(a.home));
    return outcome('passed', `${views.map((v) => `${v.agent} ${v.doc.status}`).join(', ')}; browser ${browserStatus}`, { url: a.home!.finalUrl ?? a.home!.url, status: browserStatus });
  },
});

export const noBotChallenge = defineCheck({
  id: 'no-bot-challenge',
  name: 'No bot challenge for agents',
  layer: 'access',
  tier: 'required',
  appliesTo: WEBSITE,
  description: 'No interstitial challenge (cf-mitigated: challenge, _cf_chl_opt, /cdn-cgi/challenge-platform/, "Just a moment...") for agents. CSP headers that merely name challenge hosts do not count.',
  fix: 'Exempt verified AI agents from JavaScript/captcha challenges (e.g. Cloudflare "Verified bots" or a WAF skip rule for their user agents).',
  evaluate(a) {
    const views = [{ agent: 'browser', doc: a.home }, ...a.agentViews.map((v) => ({ agent: v.agent, doc: v.doc }))].filter((v) => v.doc && v.doc.status !== null);
    if (views.length === 0) return unreachable(a.home, 'the home page')!;
    for (const view of views) {
      const doc = view.doc!;
      const header = doc.headers['cf-mitigated'];
      const signing = signingDifference(a);
      const note = signing ? `. ${signing}` : '';
      if (header && /challenge/i.test(header)) return outcome('failed', `${view.agent} was served a challenge${note}`, { ...docEvidence(doc, 'body'), header: `cf-mitigated: ${header}` });
      const markers = findChallengeMarkers(doc.body);
      if (markers.length > 0 && (doc.status! >= 400 || markers.length >= 2)) {
        return outcome('failed', `${view.agent} was served a challenge page (${markers.join(', ')})${note}`, docEvidence(doc, 'body'));
      }
    }
    const signing = signingDifference(a);
    return outcome('passed', `No challenge for ${views.map((v) => v.agent).join(', ')}${signing ? `. ${signing}` : ''}`, docEvidence(a.home));
  },
});

const MIN_WORDS = 20;

export const contentWithoutJs = defineCheck({
  id: 'content-without-js',
  name: 'Content is readable without JavaScript',
  layer: 'access',
  tier: 'required',
  appliesTo: WEBSITE,
  description: `Most agents do not run JavaScript: the raw HTML must carry an h1 and real text (at least ${MIN_WORDS} words).`,
  fix: 'Render the main content on the server (SSR or static generation) so the HTML response contains the heading and text.',
  evaluate(a) {
    const problem = unreachable(a.home, 'the home page');
    if (problem) return problem;
    const doc = a.home!;
    if (doc.status! >= 400) return outcome('failed', `The home page answers ${doc.status}`, docEvidence(doc, 'body'));
    const html = a.homeHtml;
    if (!html || !looksLikeHtml(doc)) return outcome('failed', 'The home page is not HTML', { ...docEvidence(doc), header: `content-type: ${doc.contentType}` });
    const verdict = contentVerdict(html);
    const detail = `${html.wordCount} words of text, ${html.h1.length > 0 ? `h1 "${html.h1[0]}"` : 'no h1'} in the raw HTML`;
    const home = outcome(verdict, detail, docEvidence(doc, verdict === 'passed' ? undefined : 'body'));
    return sampleShare(a, home, (page) => (page.doc.status! >= 400 || !page.html || !looksLikeHtml(page.doc) ? 'failed' : contentVerdict(page.html)), 'serve content without JavaScript');
  },
});

function contentVerdict(html: HtmlSummary): 'passed' | 'warning' | 'failed' {
  const hasH1 = html.h1.length > 0;
  const enoughText = html.wordCount >= MIN_WORDS;
  return hasH1 && enoughText ? 'passed' : hasH1 || enoughText ? 'warning' : 'failed';
}

export const publicHomePage = defineCheck({
  id: 'public-home-page',
  name: 'Home page is public',
  layer: 'access',
  tier: 'required',
  appliesTo: WEBSITE,
  description: 'The home page is reachable without signing in (no 401, no 403 login page, no redirect to a login form).',
  fix: 'Serve a public landing page that says what the product is, with links to pricing and docs; keep the app itself behind sign-in.',
  evaluate(a) {
    const problem = unreachable(a.home, 'the home page');
    if (problem) return problem;
    if (isSignInWall(a.home, a.homeHtml)) return outcome('failed', `The home page asks to sign in (HTTP ${a.home!.status} at ${a.home!.finalUrl})`, docEvidence(a.home, 'body'));
    if (isOk(a.home)) return outcome('passed', `The home page answers ${a.home!.status} without sign-in`, docEvidence(a.home));
    return outcome('failed', `The home page answers ${a.home!.status}`, docEvidence(a.home, 'body'));
  },
});

export const honestNotFound = defineCheck({
  id: 'honest-404',
  name: 'Missing pages answer 404',
  layer: 'access',
  tier: 'recommended',
  appliesTo: WEBSITE,
  description: 'A page that does not exist answers 404 (or 410), so agents can tell a wrong link from real content (no soft 404s).',
  fix: 'Return HTTP 404 for unknown paths instead of 200 with the home page or a "not found" message.',
  evaluate(a) {
    const doc = a.notFoundProbe;
    const problem = unreachable(doc, 'a made-up URL');
    if (problem || !doc) return problem!;
    if (doc.status === 404 || doc.status === 410) return outcome('passed', `A made-up URL answers ${doc.status}`, docEvidence(doc));
    if (doc.status === 401 || doc.status === 403) return outcome('warning', `A made-up URL answers ${doc.status}, hiding whether pages exist`, docEvidence(doc));
    return outcome('failed', `A made-up URL answers ${doc.status}${doc.status === 200 ? ' (a soft 404)' : ''}`, docEvidence(doc, 'body'));
  },
});
