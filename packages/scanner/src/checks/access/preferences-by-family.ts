import type { AgentFamily, Artifacts } from '../../gather/artifacts';
import { SEARCH_BOTS, TRAINING_BOTS, USER_TRIGGERED_BOTS } from '../../gather/user-agents';
import { defineCheck, docEvidence, outcome, WEBSITE } from '../define';
import { robotsState } from './bot-rules';
import { contentUsageLines, parsePreferences } from './content-usage';

/**
 * One view of what a site tells AI agents, by what the agent does: training crawlers, AI search, and agents fetching
 * because a user asked. Three sources state it: robots.txt rules for the agents' tokens (RFC 9309), Content-Usage
 * (draft-ietf-aipref-vocab terms train-ai / train-genai, search, ai-use; draft-ietf-aipref-attach) and Content-Signal
 * (draft-romm-aipref-contentsignals: ai-train, search, ai-input).
 */
interface Family {
  id: AgentFamily;
  label: string;
  bots: string[];
  usage: string[];
  signal: string;
}

const FAMILIES: Family[] = [
  { id: 'training', label: 'training', bots: TRAINING_BOTS, usage: ['train-ai', 'train-genai'], signal: 'ai-train' },
  { id: 'search', label: 'search', bots: SEARCH_BOTS, usage: ['search'], signal: 'search' },
  { id: 'user', label: 'user-triggered agents', bots: USER_TRIGGERED_BOTS, usage: ['ai-use'], signal: 'ai-input' },
];

type Stance = 'allow' | 'refuse';
const stanceOf = (value: string): Stance | null => (/^(y|yes)$/i.test(value) ? 'allow' : /^(n|no)$/i.test(value) ? 'refuse' : null);

function contentUsageTerms(a: Artifacts): Map<string, string> {
  const terms = new Map<string, string>();
  const header = a.home?.headers['content-usage'];
  for (const value of [...contentUsageLines(a), ...(header ? [header] : [])]) {
    for (const pair of parsePreferences(value).known) {
      const [k, v] = pair.split('=');
      if (!terms.has(k)) terms.set(k, v);
    }
  }
  return terms;
}

export const aiPreferencesByAgent = defineCheck({
  id: 'ai-preferences-by-agent',
  name: 'AI preferences are stated for training, search and user-triggered agents',
  layer: 'access',
  tier: 'emerging',
  appliesTo: WEBSITE,
  description:
    'robots.txt rules for each family\'s agents (RFC 9309), Content-Usage (draft-ietf-aipref-vocab: train-ai/train-genai, search, ai-use; draft-ietf-aipref-attach) and Content-Signal (draft-romm-aipref-contentsignals: ai-train, search, ai-input), read together for training crawlers, AI search and user-triggered agents. Passes when each family gets an explicit statement and no source allows what robots.txt refuses or another source refuses.',
  fix: 'State one choice per family and say it the same way everywhere, e.g. "User-agent: GPTBot / Disallow: /", "Content-Usage: train-ai=n, search=y" and "Content-Signal: ai-train=no, search=yes, ai-input=yes".',
  evaluate(a) {
    const state = robotsState(a);
    if (state.kind === 'unknown') return state.result;
    const usage = contentUsageTerms(a);
    const signals: Record<string, string> = state.kind === 'rules' ? Object.assign({}, ...state.rules.contentSignals) : {};
    const parts: string[] = [];
    const conflicts: string[] = [];
    let stated = 0;
    for (const family of FAMILIES) {
      const said: string[] = [];
      const stances: Array<{ source: string; stance: Stance }> = [];
      let named = false;
      if (state.kind === 'rules') {
        const blocked = family.bots.filter((bot) => !state.rules.isAllowed(a.targetUrl, bot));
        named = family.bots.some((bot) => state.rules.namesAgent(bot));
        if (named) said.push(blocked.length === 0 ? 'robots.txt allows them by name' : `robots.txt refuses ${blocked.join(', ')}`);
        if (blocked.length === family.bots.length) stances.push({ source: 'robots.txt', stance: 'refuse' });
      } else if (state.kind === 'disallow_all') {
        stances.push({ source: 'robots.txt', stance: 'refuse' });
      }
      for (const term of family.usage) {
        const value = usage.get(term);
        const stance = value ? stanceOf(value) : null;
        if (stance) {
          said.push(`Content-Usage ${term}=${value}`);
          stances.push({ source: `Content-Usage ${term}`, stance });
        }
      }
      const signal = signals[family.signal];
      const signalStance = signal ? stanceOf(signal) : null;
      if (signalStance) {
        said.push(`Content-Signal ${family.signal}=${signal}`);
        stances.push({ source: `Content-Signal ${family.signal}`, stance: signalStance });
      }
      if (said.length > 0) stated++;
      const allow = stances.filter((s) => s.stance === 'allow');
      const refuse = stances.filter((s) => s.stance === 'refuse');
      if (allow.length > 0 && refuse.length > 0) conflicts.push(`${family.label}: ${allow.map((s) => s.source).join(', ')} allows, ${refuse.map((s) => s.source).join(', ')} refuses`);
      parts.push(`${family.label}: ${said.length > 0 ? said.join('; ') : 'nothing explicit'}`);
    }
    const detail = parts.join(' · ');
    if (conflicts.length > 0) return outcome('warning', `${detail}. Contradictions: ${conflicts.join('; ')}`, docEvidence(a.robots, 'body'));
    if (stated === FAMILIES.length) return outcome('passed', detail, docEvidence(a.robots));
    if (stated > 0) return outcome('warning', detail, docEvidence(a.robots));
    return outcome('failed', `No explicit preference for any family of AI agents (${state.kind === 'rules' ? 'robots.txt relies on User-agent: *' : 'no robots.txt rules'}, no Content-Usage, no Content-Signal)`, docEvidence(a.robots));
  },
});
