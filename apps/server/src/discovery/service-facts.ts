// What every discovery document says about the service, gathered once at start-up from the OpenAPI documents
// (titles, descriptions, operations), the MCP tool sets and the running configuration (PUBLIC_URL,
// FEEDBACK_PUBLIC_URL). The documents are renderings of these facts, so none of them can drift from the others.
import type { OpenApiReader } from '../http/openapi-resolve';
import type { McpIdentity } from '../mcp/endpoint';
import type { Tool } from '../mcp/tool';

export interface HostFacts {
  /** Base URL as users reach it, no trailing slash. */
  base: string;
  title: string;
  version: string;
  /** The API's description from its OpenAPI document (info.description). */
  description: string;
  operations: OperationFacts[];
  mcp: { identity: McpIdentity; endpoint: string; card: string; tools: Tool[] };
}

export interface OperationFacts {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: Array<{ name: string; in: string; required: boolean; description: string }>;
}

export interface ServiceFacts {
  leaderboard: HostFacts;
  feedback: HostFacts;
  /** The feedback project of this service itself. */
  feedbackProject: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

export function hostFacts(reader: OpenApiReader, base: string, mcp: { identity: McpIdentity; tools: Tool[] }): HostFacts {
  const info = reader.raw('/info') as { title: string; version: string; description?: string };
  const paths = reader.resolved('/paths') as Record<string, Record<string, Record<string, unknown>>>;
  const operations: OperationFacts[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId),
        summary: String(op.summary ?? ''),
        description: oneLine(String(op.description ?? '')),
        tags: (op.tags as string[] | undefined) ?? [],
        parameters: ((op.parameters ?? []) as Array<{ name: string; in: string; required?: boolean; description?: string }>).map((p) => ({
          name: p.name,
          in: p.in,
          required: Boolean(p.required),
          description: oneLine(p.description ?? ''),
        })),
      });
    }
  }
  const endpoint = `${base}/mcp`;
  return { base, title: info.title, version: info.version, description: oneLine(info.description ?? ''), operations, mcp: { ...mcp, endpoint, card: `${endpoint}/server-card` } };
}

/** The feedback project that collects reports about this service itself (seeded). */
export const OWN_FEEDBACK_PROJECT = 'leaderboard';

export function serviceFacts(leaderboard: HostFacts, feedback: HostFacts): ServiceFacts {
  return { leaderboard, feedback, feedbackProject: OWN_FEEDBACK_PROJECT };
}

/** The first sentence of a description (a card's or a summary's one-liner). */
export function firstSentence(text: string): string {
  const match = /^(.+?[.!?])(\s|$)/.exec(text);
  return match ? match[1] : text;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
