// robots.txt (RFC 9309): every crawler and agent may read everything. The AI usage preferences are stated twice,
// as Content-Signal (contentsignals.org) and as Content-Usage (IETF AIPREF drafts): a public ranking is meant to be
// searched, quoted by agents and learned from. The AI agents are also welcomed by name, so no one has to infer it
// from the wildcard group.
import type { ServiceFacts } from './service-facts';

const AI_AGENTS = ['OAI-SearchBot', 'ChatGPT-User', 'GPTBot', 'Claude-SearchBot', 'Claude-User', 'ClaudeBot', 'PerplexityBot', 'Perplexity-User', 'Google-Extended', 'CCBot'];

export function robotsTxt(facts: ServiceFacts): string {
  const base = facts.leaderboard.base;
  return [
    `# ${facts.leaderboard.title}: agents and crawlers are welcome.`,
    `# For agents: ${base}/llms.txt, the MCP server at ${facts.leaderboard.mcp.endpoint}, the API at ${base}/openapi.json.`,
    '',
    ...AI_AGENTS.map((agent) => `User-agent: ${agent}`),
    'Allow: /',
    '',
    'User-agent: *',
    'Allow: /',
    'Content-Signal: search=yes, ai-input=yes, ai-train=yes',
    'Content-Usage: search=y, train-ai=y',
    '',
    `Sitemap: ${base}/sitemap.xml`,
    '',
  ].join('\n');
}
