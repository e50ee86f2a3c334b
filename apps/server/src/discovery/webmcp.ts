// /webmcp.js: the leaderboard's MCP tools offered to agents that run inside our web pages (WebMCP, W3C Web Machine
// Learning CG draft: navigator.modelContext.registerTool). Each registered tool calls the same tool of our MCP server
// (POST /mcp tools/call, same origin), so the page adds no behaviour of its own; the list is the MCP server's.
import type { ServiceFacts } from './service-facts';

export function webMcpScript(facts: ServiceFacts): string {
  const tools = facts.leaderboard.mcp.tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations }));
  return `// WebMCP tools of ${facts.leaderboard.title}: each one calls the MCP server of this site (${facts.leaderboard.mcp.endpoint}).
(function () {
  var modelContext = navigator.modelContext;
  if (!modelContext || typeof modelContext.registerTool !== 'function') return;
  var endpoint = new URL('/mcp', location.origin).href;
  var tools = ${JSON.stringify(tools)};
  var nextId = 0;
  tools.forEach(function (tool) {
    navigator.modelContext.registerTool({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: tool.annotations,
      execute: function (args) {
        nextId += 1;
        return fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: nextId, method: 'tools/call', params: { name: tool.name, arguments: args || {} } }),
        })
          .then(function (res) { return res.json(); })
          .then(function (answer) {
            if (answer.error) return { content: [{ type: 'text', text: answer.error.message }], isError: true };
            return answer.result;
          });
      },
    });
  });
})();
`;
}
