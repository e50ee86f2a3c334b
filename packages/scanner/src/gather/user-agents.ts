import type { AgentFamily } from './artifacts';

/** Our own name always stays in the string; the bot token is appended so bot-matching rules see that family. */
export function browserUserAgent(scannerUserAgent: string): string {
  return `Mozilla/5.0 (compatible) ${scannerUserAgent}`;
}

export function agentUserAgent(scannerUserAgent: string, agent: string): string {
  return `${scannerUserAgent} ${agent}/1.0 (testing how ${agent} is treated)`;
}

export const AGENT_VIEWS: ReadonlyArray<{ agent: string; family: AgentFamily }> = [
  { agent: 'ClaudeBot', family: 'training' },
  { agent: 'OAI-SearchBot', family: 'search' },
  { agent: 'ChatGPT-User', family: 'user' },
];

export const SEARCH_AND_USER_BOTS = ['OAI-SearchBot', 'ChatGPT-User', 'Claude-SearchBot', 'Claude-User', 'PerplexityBot', 'Perplexity-User'];
/** The same agents by purpose: indexing for AI search, and fetching a page because a user asked for it. */
export const SEARCH_BOTS = ['OAI-SearchBot', 'Claude-SearchBot', 'PerplexityBot'];
export const USER_TRIGGERED_BOTS = ['ChatGPT-User', 'Claude-User', 'Perplexity-User'];
export const TRAINING_BOTS = ['GPTBot', 'ClaudeBot', 'CCBot', 'Google-Extended', 'anthropic-ai', 'Applebot-Extended', 'Bytespider', 'meta-externalagent'];

export const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** How robots.txt is asked for: the gather lane and the scan's check of a blocked home page share the one fetch. */
export const ROBOTS_ACCEPT = 'text/plain,*/*;q=0.5';
