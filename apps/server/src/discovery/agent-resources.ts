// Two more indexes agents read: the ARD manifest (Agentic Resource Discovery: the service's agent-facing
// resources) and the Agent Skills index with its SKILL.md files (how to use the service, in the words of its tools).
import type { ServiceFacts } from './service-facts';

export function ardManifest(facts: ServiceFacts): Record<string, unknown> {
  const lb = facts.leaderboard;
  const host = new URL(lb.base).host;
  const entry = (id: string, displayName: string, type: string, url: string, description: string) => ({ identifier: `urn:air:${host}:${id}`, displayName, type, url, description });
  return {
    specVersion: '1.0',
    host: { displayName: lb.title, identifier: host },
    entries: [
      ...[facts.leaderboard, facts.feedback].map((h) =>
        entry(`mcp:${h.mcp.identity.name}`, `${h.mcp.identity.title} MCP server`, 'application/mcp-server-card+json', h.mcp.card, `Streamable HTTP at ${h.mcp.endpoint}; tools ${h.mcp.tools.map((t) => t.name).join(', ')}.`),
      ),
      ...[facts.leaderboard, facts.feedback].map((h) => entry(`api:${h.mcp.identity.name}`, `${h.title} API`, 'application/openapi+json', `${h.base}/openapi.json`, h.description.split('. ')[0] + '.')),
      entry('llms-txt', `${lb.title} for language models`, 'text/markdown', `${lb.base}/llms.txt`, 'What the service is, its API, MCP servers and feedback host.'),
    ],
  };
}

export interface Skill {
  name: string;
  description: string;
  body: string;
}

export function skills(facts: ServiceFacts): Skill[] {
  const lb = facts.leaderboard;
  const fb = facts.feedback;
  const tools = (host: typeof lb) => host.mcp.tools.map((t) => `- \`${t.name}\`: ${t.description}`).join('\n');
  return [
    {
      name: 'agent-readiness',
      description: `Check how ready a website or MCP server is for AI agents and what it should fix, with the ${lb.title}.`,
      body: [
        `# Agent readiness with the ${lb.title}`,
        '',
        `Connect to the MCP server at ${lb.mcp.endpoint} (Streamable HTTP, no sign-in), or call the HTTP API described at ${lb.base}/openapi.json.`,
        '',
        '1. To judge a site that is already ranked, call `get_company` with its domain: the report lists every check with its evidence and fix.',
        '2. Otherwise call `start_scan` with its URL, then `get_scan` with the returned id and `waitSeconds` until `state` is `ended`; then `get_company`.',
        '3. Explain a score with `get_methodology` (weights, tiers, caps, grade bands).',
        '',
        'Tools:',
        '',
        tools(lb),
        '',
      ].join('\n'),
    },
    {
      name: 'send-feedback',
      description: `Tell a project what happened when you used it, through the feedback host of the ${lb.title}.`,
      body: [
        '# Sending feedback',
        '',
        `Connect to the MCP server at ${fb.mcp.endpoint}. Read the project's card with \`get_feedback_card\` (this service's own project is "${facts.feedbackProject}"), then send one report with \`send_feedback_report\`: what happened (observation), how it went (outcome: succeeded, friction or blocked), and what you were trying to do (goal). The same content sent twice returns the first receipt.`,
        '',
        'Tools:',
        '',
        tools(fb),
        '',
      ].join('\n'),
    },
  ];
}

export function skillFile(skill: Skill): string {
  return `---\nname: ${skill.name}\ndescription: ${JSON.stringify(skill.description)}\n---\n\n${skill.body}`;
}

export function skillsIndex(facts: ServiceFacts): Record<string, unknown> {
  return {
    skills: skills(facts).map((s) => ({ name: s.name, type: 'skill-md', description: s.description, url: `${facts.leaderboard.base}/.well-known/agent-skills/${s.name}/SKILL.md` })),
  };
}
