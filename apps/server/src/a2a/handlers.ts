// The A2A routes of the leaderboard host: the agent card and the JSON-RPC endpoint, over the host's MCP tools.
import { firstSentence } from '../discovery/service-facts';
import { mcpIdentity, readerFor, toolsFor } from '../mcp/hosts';
import type { HandlerMap } from '../mcp/tool';
import type { Runtime } from '../runtime';
import { agentCard, createA2aEndpoint } from './agent';

export function a2aHandlers(runtime: Runtime, handlers: HandlerMap) {
  const identity = mcpIdentity('leaderboard');
  const info = readerFor('leaderboard').raw('/info') as { description?: string };
  const card = agentCard(runtime.config.publicUrl, identity.title, firstSentence((info.description ?? '').replace(/\s+/g, ' ').trim()), identity.version);
  return {
    getAgentCard: async () => ({ status: 200 as const, body: card as never }),
    postA2a: createA2aEndpoint(toolsFor('leaderboard', handlers)),
  };
}
