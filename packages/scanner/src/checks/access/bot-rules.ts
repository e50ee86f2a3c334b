import type { Artifacts } from '../../gather/artifacts';
import { SEARCH_AND_USER_BOTS, TRAINING_BOTS } from '../../gather/user-agents';
import { parseRobots, RobotsRules } from '../../util/robots';
import { CheckOutcome } from '../types';
import { defineCheck, docEvidence, looksLikeHtml, outcome, unreachable, WEBSITE } from '../define';

type RobotsState = { kind: 'rules'; rules: RobotsRules } | { kind: 'allow_all'; reason: string } | { kind: 'disallow_all'; reason: string } | { kind: 'unknown'; result: CheckOutcome };

/** RFC 9309: 4xx means no restrictions, 5xx means assume everything is disallowed. */
export function robotsState(a: Artifacts): RobotsState {
  const doc = a.robots;
  const problem = unreachable(doc, '/robots.txt');
  if (problem || !doc) return { kind: 'unknown', result: problem! };
  if (doc.error?.code === 'too_large') return { kind: 'unknown', result: outcome('couldnt_check', 'robots.txt is too large to read', docEvidence(doc)) };
  if (doc.status! >= 500) return { kind: 'disallow_all', reason: `robots.txt answered ${doc.status}; RFC 9309 says crawlers must then assume everything is disallowed` };
  if (doc.status! >= 400) return { kind: 'allow_all', reason: `robots.txt answered ${doc.status}; RFC 9309 says everything is allowed` };
  if (looksLikeHtml(doc)) return { kind: 'allow_all', reason: 'robots.txt answers with an HTML page, which holds no rules' };
  return { kind: 'rules', rules: parseRobots(doc.finalUrl ?? doc.url, doc.body) };
}

export const aiSearchBotsAllowed = defineCheck({
  id: 'ai-search-bots-allowed',
  name: 'AI search and user-fetch bots may read the site',
  layer: 'access',
  tier: 'required',
  appliesTo: WEBSITE,
  description: 'robots.txt lets the bots that fetch on behalf of a user or for AI search (OAI-SearchBot, ChatGPT-User, Claude-SearchBot, Claude-User, PerplexityBot, Perplexity-User) read the home page. Training bots are judged separately.',
  fix: 'Allow the search and user-fetch agents in robots.txt (User-agent: OAI-SearchBot / ChatGPT-User / Claude-User ... Allow: /), even if you block training crawlers.',
  evaluate(a) {
    const state = robotsState(a);
    if (state.kind === 'unknown') return state.result;
    if (state.kind === 'allow_all') return outcome('passed', state.reason, docEvidence(a.robots));
    if (state.kind === 'disallow_all') return outcome('failed', state.reason, docEvidence(a.robots));
    const blocked = SEARCH_AND_USER_BOTS.filter((bot) => !state.rules.isAllowed(a.targetUrl, bot));
    if (blocked.length === 0) return outcome('passed', `All ${SEARCH_AND_USER_BOTS.length} search and user-fetch agents may read ${a.targetUrl}`, docEvidence(a.robots));
    const detail = `robots.txt disallows ${blocked.join(', ')} from ${new URL(a.targetUrl).pathname}`;
    if (blocked.length === SEARCH_AND_USER_BOTS.length) return outcome('failed', detail, docEvidence(a.robots, 'body'));
    return outcome('warning', detail, docEvidence(a.robots, 'body'));
  },
});

export const trainingBotPolicy = defineCheck({
  id: 'ai-training-bot-policy',
  name: 'AI training crawlers get an explicit policy',
  layer: 'access',
  tier: 'recommended',
  appliesTo: WEBSITE,
  description: 'Allowing or refusing training crawlers (GPTBot, ClaudeBot, CCBot, Google-Extended...) is the owner\'s choice; what matters is that the choice is explicit, by name or by Content-Signal.',
  fix: 'Name the training crawlers in robots.txt (e.g. User-agent: GPTBot / Disallow: /) or add Content-Signal: ai-train=no|yes, instead of relying on User-agent: *.',
  evaluate(a) {
    const state = robotsState(a);
    if (state.kind === 'unknown') return state.result;
    if (state.kind === 'disallow_all') return outcome('failed', state.reason, docEvidence(a.robots));
    if (state.kind === 'allow_all') return outcome('warning', `${state.reason}, but no policy for AI training is stated`, docEvidence(a.robots));
    const named = TRAINING_BOTS.filter((bot) => state.rules.namesAgent(bot));
    const signal = state.rules.contentSignals.some((s) => s['ai-train'] !== undefined);
    if (named.length > 0 || signal) {
      return outcome('passed', named.length > 0 ? `robots.txt names ${named.join(', ')}` : 'Content-Signal states the ai-train preference', docEvidence(a.robots, 'body'));
    }
    return outcome('warning', 'robots.txt relies on User-agent: * only; training crawlers get no explicit policy', docEvidence(a.robots, 'body'));
  },
});

export const contentSignals = defineCheck({
  id: 'content-signals',
  name: 'Content Signals state AI usage preferences',
  layer: 'access',
  tier: 'emerging',
  appliesTo: WEBSITE,
  description: 'Content-Signal lines in robots.txt (search, ai-input, ai-train) that agree with the robots rules.',
  fix: 'Add "Content-Signal: search=yes, ai-input=yes, ai-train=no" (your choice of values) to the User-agent: * group of robots.txt.',
  evaluate(a) {
    const state = robotsState(a);
    if (state.kind === 'unknown') return state.result;
    if (state.kind !== 'rules' || state.rules.contentSignals.length === 0) return outcome('failed', 'robots.txt carries no Content-Signal line', docEvidence(a.robots));
    const signals = Object.assign({}, ...state.rules.contentSignals) as Record<string, string>;
    const contradictions: string[] = [];
    const trainingBlocked = TRAINING_BOTS.some((bot) => state.rules.namesAgent(bot) && !state.rules.isAllowed(a.targetUrl, bot));
    if (signals['ai-train'] === 'yes' && trainingBlocked) contradictions.push('ai-train=yes but training crawlers are disallowed');
    const searchBlocked = SEARCH_AND_USER_BOTS.some((bot) => !state.rules.isAllowed(a.targetUrl, bot));
    if (signals.search === 'yes' && searchBlocked) contradictions.push('search=yes but search agents are disallowed');
    const summary = Object.entries(signals).map(([k, v]) => `${k}=${v}`).join(', ');
    if (contradictions.length > 0) return outcome('warning', `Content-Signal (${summary}) contradicts robots.txt: ${contradictions.join('; ')}`, docEvidence(a.robots, 'body'));
    return outcome('passed', `Content-Signal: ${summary}`, docEvidence(a.robots));
  },
});
