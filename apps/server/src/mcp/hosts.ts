// Each host's MCP server: its identity (answered at initialize and printed on its server card) and its tools bound
// to the host's operation handlers. Also which web origins may call the endpoints.
import { specPaths } from '@arl/contract/node';
import type { Config } from '../config';
import { OpenApiReader } from '../http/openapi-resolve';
import { createMcpEndpoint, type McpIdentity } from './endpoint';
import { feedbackTools } from './feedback-tools';
import { leaderboardTools } from './leaderboard-tools';
import type { CheckedTool, HandlerMap } from './tool';

export type HostName = 'leaderboard' | 'feedback';

const SERVER_NAMES: Record<HostName, string> = { leaderboard: 'agent-readiness-leaderboard', feedback: 'agent-readiness-feedback' };

const INSTRUCTIONS: Record<HostName, string> = {
  leaderboard:
    'Agent-readiness scores of companies. Find a company with search_leaderboard or get_company (by domain); get_company returns its report with evidence and fixes. To score a new URL, call start_scan, then get_scan with waitSeconds until the scan has ended. A verdict you believe wrong is disputed with dispute_verdict on the feedback host\'s MCP server. Errors come back as tool results with isError and {code, message, requestId}.',
  feedback:
    'Feedback for projects. Read the card with get_feedback_card (this service\'s own project is "leaderboard"), then send one report with send_feedback_report; the same content sent again returns the first receipt. To dispute a check verdict of the leaderboard, call dispute_verdict (it starts or joins a rescan of the site), then get_dispute with the receipt id.',
};

const readers = new Map<HostName, OpenApiReader>();
export function readerFor(host: HostName): OpenApiReader {
  let reader = readers.get(host);
  if (!reader) readers.set(host, (reader = new OpenApiReader(specPaths[host])));
  return reader;
}

export function mcpIdentity(host: HostName): McpIdentity {
  const info = readerFor(host).raw('/info') as { title: string; version: string };
  return { name: SERVER_NAMES[host], title: info.title, version: info.version, instructions: INSTRUCTIONS[host] };
}

export function toolsFor(host: HostName, handlers: HandlerMap): CheckedTool[] {
  return host === 'leaderboard' ? leaderboardTools(readerFor(host), handlers) : feedbackTools(readerFor(host), handlers);
}

/** This service's own web origins (and the configured CORS list): a page on any other origin may not drive /mcp. */
export function allowedOrigins(config: Pick<Config, 'publicUrl' | 'feedbackPublicUrl' | 'corsOrigins'>): string[] {
  const own = [new URL(config.publicUrl).origin, new URL(config.feedbackPublicUrl).origin];
  return [...new Set([...own, ...(config.corsOrigins === '*' ? [] : config.corsOrigins)])];
}

export function mcpEndpointFor(host: HostName, config: Config, handlers: HandlerMap) {
  return createMcpEndpoint({ identity: mcpIdentity(host), tools: toolsFor(host, handlers), allowedOrigins: allowedOrigins(config) });
}
