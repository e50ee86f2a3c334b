// llms.txt (llmstxt.org) and llms-full.txt: the service for language models, rendered from the service facts (the
// OpenAPI documents, the MCP tool sets, the running configuration). llms.txt is the map; llms-full.txt adds every
// operation and every tool argument.
import type { Tool } from '../mcp/tool';
import { firstSentence, type HostFacts, type ServiceFacts } from './service-facts';

export function mcpClientConfig(facts: ServiceFacts): string {
  const servers = Object.fromEntries([facts.leaderboard, facts.feedback].map((h) => [h.mcp.identity.name, { type: 'http', url: h.mcp.endpoint }]));
  return JSON.stringify({ mcpServers: servers }, null, 2);
}

function toolLine(tool: Tool): string {
  return `- \`${tool.name}\` (${tool.annotations.readOnlyHint ? 'read-only' : 'changes state'}): ${tool.description}`;
}

export function llmsTxt(facts: ServiceFacts): string {
  const lb = facts.leaderboard;
  const fb = facts.feedback;
  const project = facts.feedbackProject;
  return [
    `# ${lb.title}`,
    '',
    `> ${firstSentence(lb.description)} Agents can use it through an MCP server or its HTTP API, and tell us what went wrong through the feedback host.`,
    '',
    `Two hosts, each with an OpenAPI 3.1 contract and an MCP server (Streamable HTTP, stateless, no sign-in): the leaderboard at ${lb.base} and the feedback host at ${fb.base}. Every error body is {code, message, requestId}.`,
    '',
    '## MCP servers',
    '',
    `- [${lb.mcp.identity.title} MCP server](${lb.mcp.endpoint}): search and read the leaderboard, companies with their reports and the methodology; start and follow scans and journeys.`,
    `- [${fb.mcp.identity.title} MCP server](${fb.mcp.endpoint}): read a project's feedback card and send it a report.`,
    `- [Server card of the leaderboard MCP server](${lb.mcp.card}): name, version, endpoint and tools before connecting.`,
    `- [Server card of the feedback MCP server](${fb.mcp.card})`,
    `- [MCP catalog](${lb.base}/.well-known/mcp/catalog.json): both servers.`,
    `- [A2A agent card](${lb.base}/.well-known/agent-card.json): an A2A 0.3 agent (JSON-RPC \`message/send\` at ${lb.base}/a2a) that answers questions about a company's readiness or the top of the ranking, through the same tools.`,
    '',
    `Leaderboard tools:`,
    '',
    ...lb.mcp.tools.map(toolLine),
    '',
    `Feedback tools:`,
    '',
    ...fb.mcp.tools.map(toolLine),
    '',
    'Client configuration (Streamable HTTP):',
    '',
    '```json',
    mcpClientConfig(facts),
    '```',
    '',
    '## Feedback',
    '',
    `- [Feedback card of this service](${fb.base}/v1/feedback/${project}): whether reports are accepted, the guidance and the report's JSON Schema. Send a report with the MCP tool \`send_feedback_report\` (slug "${project}") or POST ${fb.base}/v1/feedback/${project}/reports; the same content sent twice gets the same receipt.`,
    `- [Report schema](${fb.base}/v1/feedback/${project}/report-schema): JSON Schema 2020-12 of a report.`,
    '',
    '## HTTP API',
    '',
    `- [Leaderboard OpenAPI (JSON)](${lb.base}/openapi.json): ${firstSentence(lb.description)}`,
    `- [Leaderboard API reference](${lb.base}/docs)`,
    `- [Feedback OpenAPI (JSON)](${fb.base}/openapi.json): ${firstSentence(fb.description)}`,
    `- [Feedback API reference](${fb.base}/docs)`,
    `- [API catalog](${lb.base}/.well-known/api-catalog): RFC 9727 linkset of both APIs and both MCP servers.`,
    `- [Methodology](${lb.base}/v1/leaderboard/methodology): how scores and grades are computed, as JSON.`,
    '',
    '## Open data',
    '',
    `- [The state of agent readiness](${lb.base}/stats): every check's share of passing companies, with weekly trends, grades and a per-category comparison (a page; Markdown with Accept: text/markdown).`,
    `- [Population statistics](${lb.base}/v1/leaderboard/stats): the same figures as JSON (MCP tool \`get_population_stats\`).`,
    `- [Dataset as CSV](${lb.base}/v1/leaderboard/dataset.csv) and [as JSON Lines](${lb.base}/v1/leaderboard/dataset.jsonl): one row per ranked company with its score, grade and every check's status, streamed, under CC BY 4.0 (MCP tool \`get_dataset_info\`).`,
    '',
    '## Optional',
    '',
    `- [llms-full.txt](${lb.base}/llms-full.txt): every operation and every tool argument.`,
    `- [Agent Skills](${lb.base}/.well-known/agent-skills/index.json)`,
    `- [Sitemap](${lb.base}/sitemap.xml)`,
    '',
  ].join('\n');
}

function hostReference(host: HostFacts): string[] {
  const lines = [`## ${host.title} API (${host.base})`, '', host.description, ''];
  for (const op of host.operations) {
    lines.push(`### ${op.method} ${op.path} (${op.operationId})`, '', op.summary + '.', '');
    if (op.description) lines.push(op.description, '');
    for (const p of op.parameters) lines.push(`- ${p.in} \`${p.name}\`${p.required ? ' (required)' : ''}: ${p.description || 'see the OpenAPI document'}`);
    if (op.parameters.length > 0) lines.push('');
  }
  lines.push(`## ${host.mcp.identity.title} MCP tools (${host.mcp.endpoint})`, '');
  for (const tool of host.mcp.tools) {
    const a = tool.annotations;
    lines.push(`### ${tool.name}: ${tool.title}`, '', tool.description, '');
    lines.push(`Annotations: readOnlyHint ${a.readOnlyHint}, destructiveHint ${a.destructiveHint}, idempotentHint ${a.idempotentHint}, openWorldHint ${a.openWorldHint}.`, '');
    const schema = tool.inputSchema as { properties?: Record<string, { description?: string }>; required?: string[] };
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      lines.push(`- \`${name}\`${schema.required?.includes(name) ? ' (required)' : ''}: ${(prop.description ?? '').replace(/\s+/g, ' ')}`);
    }
    lines.push('');
  }
  return lines;
}

export function llmsFullTxt(facts: ServiceFacts): string {
  return [llmsTxt(facts), ...hostReference(facts.leaderboard), ...hostReference(facts.feedback)].join('\n');
}
