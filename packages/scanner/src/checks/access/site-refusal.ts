import type { Artifacts, FetchedDoc } from '../../gather/artifacts';
import { blockOf } from '../../gather/block-signals';
import { SEARCH_AND_USER_BOTS } from '../../gather/user-agents';
import { robotsState } from './bot-rules';

/**
 * A site's own refusal of AI agents, told apart from a WAF's (issue 29). A challenge alone may be a bot-management
 * product's default that the site never chose, so it never ranks a site by itself; robots.txt is the site's own
 * word. When the site says no in robots.txt and its answers say no to every AI agent as well, the refusal is a verdict
 * on the site: the scan is scored (what could not be read stays couldnt_check) and the score is held at
 * REFUSAL_SCORE_CAP, so the site ranks last instead of leaving the ranking by blocking the scanner.
 */
export interface SiteRefusal {
  /** What robots.txt says, e.g. "robots.txt disallows / for every AI search and user-fetch agent (User-agent: *)". */
  words: string;
  /** How the site answered the AI agents, e.g. "ClaudeBot, OAI-SearchBot, ChatGPT-User met a Cloudflare challenge ...". */
  answers: string;
  /** X-Robots-Tag values naming AI use on the site's answers, reported beside the refusal (never deciding it). */
  robotsTags: string[];
}

/** Statuses that turn a client away on purpose; 401 asks for sign-in and 429/503 speak of load, so they are not a refusal. */
const REFUSING_STATUSES = new Set([403, 406, 451]);

/**
 * robots.txt (read, with rules) disallows the target for every AI search and user-fetch agent, whether by naming
 * them or by User-agent: *. A robots.txt we could not read, a 5xx (RFC 9309's "assume disallowed" is a crawler's
 * caution, not the site's choice) or an HTML page says nothing.
 */
export function refusalInWords(a: Artifacts): string | null {
  const state = robotsState(a);
  if (state.kind !== 'rules') return null;
  if (SEARCH_AND_USER_BOTS.some((bot) => state.rules.isAllowed(a.targetUrl, bot))) return null;
  const named = SEARCH_AND_USER_BOTS.filter((bot) => state.rules.namesAgent(bot));
  const how = named.length === SEARCH_AND_USER_BOTS.length ? `by name: ${named.join(', ')}` : named.length > 0 ? `User-agent: * and ${named.join(', ')}` : 'User-agent: *';
  return `robots.txt disallows ${new URL(a.targetUrl).pathname} for every AI search and user-fetch agent (${how})`;
}

/**
 * Every AI agent's request for the home page was refused (a challenge, or 403/406/451). With Web Bot Auth on, those
 * requests were signed: the site turns away agents that say who they are, which a WAF waiting for a verified bot
 * would not. Rate-limited views say nothing; without any view left the answers are unknown.
 */
export function refusalInAnswers(a: Artifacts): string | null {
  const views = a.agentViews.filter((v) => v.doc.status !== null && !v.doc.error && blockOf(v.doc)?.kind !== 'rate_limit');
  if (views.length === 0 || !views.every((v) => refused(v.doc))) return null;
  const first = views[0].doc;
  let text = `${views.map((v) => v.agent).join(', ')} met ${blockOf(first)?.reason ?? `HTTP ${first.status}`}`;
  const signing = a.signing;
  if (signing) {
    text += ' though the requests were signed with Web Bot Auth';
    const ours = [signing.signed, signing.unsigned];
    if (ours.every((d) => d.status !== null && refused(d))) text += ', and our own User-Agent met it too, signed with Web Bot Auth or not';
  }
  return text;
}

export function siteRefusal(a: Artifacts): SiteRefusal | null {
  const words = refusalInWords(a);
  const answers = words ? refusalInAnswers(a) : null;
  if (!words || !answers) return null;
  return { words, answers, robotsTags: aiRobotsTags(a) };
}

/** One sentence of evidence for the refusal. */
export function describeRefusal(refusal: SiteRefusal): string {
  const tags = refusal.robotsTags.length > 0 ? `; its answers carry X-Robots-Tag: ${refusal.robotsTags.join(' / ')}` : '';
  return `${refusal.words}; ${refusal.answers}${tags}`;
}

function refused(doc: FetchedDoc): boolean {
  const block = blockOf(doc);
  return block?.kind === 'challenge' || (doc.status !== null && REFUSING_STATUSES.has(doc.status) && block?.kind !== 'rate_limit');
}

/** X-Robots-Tag values of the home page and the agent views that speak about AI (noai, noimageai). */
function aiRobotsTags(a: Artifacts): string[] {
  const docs = [a.home, ...a.agentViews.map((v) => v.doc)];
  const values = docs.map((d) => d?.headers['x-robots-tag']).filter((v): v is string => typeof v === 'string' && /\bnoai|noimageai\b/i.test(v));
  return [...new Set(values)];
}
