// A small A2A agent (Agent2Agent protocol 0.3, JSON-RPC binding, `message/send` only) in front of the leaderboard:
// another agent asks in plain text about a company ("how ready is stripe.com?") or the ranking, and gets the answer
// as text and as data. It answers through the leaderboard host's MCP tools (get_company, search_leaderboard), so it
// reads exactly what the API and the MCP server read. Rule-based, no model: it looks for a domain in the message.
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { ApiError } from '../http/errors';
import type { CallContext, CheckedTool } from '../mcp/tool';

export const A2A_PROTOCOL_VERSION = '0.3.0';

interface JsonRpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: { message?: { role?: unknown; parts?: Array<{ kind?: unknown; text?: unknown }>; contextId?: unknown; taskId?: unknown } };
}

const DOMAIN = /\b((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})\b/i;

export function agentCard(base: string, title: string, description: string, version: string): Record<string, unknown> {
  return {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: `${title} agent`,
    description: `${description} Ask about a company by its domain, or for the top of the ranking.`,
    url: `${base}/a2a`,
    preferredTransport: 'JSONRPC',
    version,
    provider: { organization: title, url: `${base}/` },
    documentationUrl: `${base}/llms.txt`,
    capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'company-readiness',
        name: 'Company agent readiness',
        description: "A company's agent-readiness score, grade, rank and what it should fix first, from its latest scan.",
        tags: ['agent-readiness', 'mcp', 'scores'],
        examples: ['How ready is stripe.com for agents?', 'What should example.com fix?'],
      },
      {
        id: 'leaderboard-top',
        name: 'Top of the leaderboard',
        description: 'The best-scored companies right now, with their scores and grades.',
        tags: ['leaderboard', 'ranking'],
        examples: ['Who leads the leaderboard?'],
      },
    ],
  };
}

export function createA2aEndpoint(tools: CheckedTool[]) {
  const tool = (name: string) => {
    const found = tools.find((t) => t.name === name);
    if (!found) throw new Error(`A2A agent: no tool ${name}`);
    return found;
  };
  const getCompany = tool('get_company');
  const search = tool('search_leaderboard');
  const run = (t: CheckedTool, args: Record<string, unknown>, ctx: CallContext) => t.call(t.check(args), ctx);

  async function answer(text: string, ctx: CallContext): Promise<{ text: string; data: Record<string, unknown> }> {
    const domain = DOMAIN.exec(text)?.[1]?.toLowerCase();
    if (domain) {
      try {
        const { company, report } = (await run(getCompany, { domain, community: 'include' }, ctx)) as { company: Record<string, unknown>; report: { checks: Array<{ status: string; name: string; fix: string | null }> } | null };
        if (company.score === null) return { text: `${company.name} (${domain}) has not been scored yet; start a scan of its website to score it.`, data: { company } };
        const fixes = (report?.checks ?? []).filter((c) => c.status === 'failed' && c.fix).slice(0, 3).map((c) => `${c.name}: ${c.fix}`);
        const rank = company.rank ? `, rank ${company.rank} of ${company.rankedCompanies}` : '';
        const todo = fixes.length > 0 ? ` First fixes: ${fixes.join(' ')}` : ' Nothing failed.';
        const summary = typeof company.summary === 'string' ? ` ${company.summary.replace(/[.\s]*$/, '.')}` : '';
        return { text: `${company.name} (${domain}) scores ${company.score}, grade ${company.grade}${rank}.${summary}${todo}`.replace(/\s+/g, ' ').trim(), data: { company, report } };
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return { text: `No company with the domain ${domain} is known; start a scan of its website to add it.`, data: { domain } };
        throw err;
      }
    }
    const page = (await run(search, { limit: 5 }, ctx)) as { items: Array<{ rank: number; score: number; grade: string; company: { name: string; domain: string } }> };
    if (page.items.length === 0) return { text: 'No company has been scored yet.', data: page };
    return { text: `Top of the leaderboard: ${page.items.map((i) => `${i.rank}. ${i.company.name} (${i.company.domain}) ${i.score} ${i.grade}`).join('; ')}.`, data: page };
  }

  /** The operation handler of POST /a2a: JSON-RPC in, JSON-RPC out (errors as JSON-RPC error objects, as A2A specifies). */
  return async ({ req, res, body }: { req: Request; res: Response; body: unknown }): Promise<{ status: 200; body: never }> => {
    const request = (body ?? {}) as JsonRpcRequest;
    const id = typeof request.id === 'string' || typeof request.id === 'number' ? request.id : null;
    const reply = (payload: Record<string, unknown>) => ({ status: 200 as const, body: { jsonrpc: '2.0', id, ...payload } as never });
    if (request.jsonrpc !== '2.0' || typeof request.method !== 'string') return reply({ error: { code: -32600, message: 'Invalid Request: a JSON-RPC 2.0 request is expected.' } });
    if (request.method === 'tasks/get' || request.method === 'tasks/cancel') return reply({ error: { code: -32001, message: 'Task not found: this agent answers with messages and keeps no tasks.' } });
    if (request.method !== 'message/send') return reply({ error: { code: -32601, message: `Method not found: ${request.method} (this agent supports message/send).` } });
    const message = request.params?.message;
    const text = (message?.parts ?? []).filter((p) => p?.kind === 'text' && typeof p.text === 'string').map((p) => p.text as string).join('\n');
    if (!message || message.role !== 'user' || text.trim() === '') return reply({ error: { code: -32602, message: 'Invalid params: params.message needs role "user" and at least one text part.' } });
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const result = await answer(text.slice(0, 2000), { req, res, log: req.log, requestId: req.requestId, signal: controller.signal });
    return reply({
      result: {
        kind: 'message',
        messageId: randomUUID(),
        role: 'agent',
        contextId: typeof message.contextId === 'string' ? message.contextId : randomUUID(),
        parts: [{ kind: 'text', text: result.text }, { kind: 'data', data: result.data }],
      },
    });
  };
}
