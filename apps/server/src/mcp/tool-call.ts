// One tools/call, whichever MCP revision carried it: the arguments checked against the tool's input schema, the
// tool run, and its answer (or its error) shaped as a CallToolResult. The SDK's 2025-11-25 handler and our own
// 2026-07-28 handler (modern.ts) both call this, so a tool behaves the same on either revision.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { ApiError } from '../http/errors';
import type { CheckedTool } from './tool';

export async function callTool(tool: CheckedTool, args: Record<string, unknown>, req: Request, res: Response, signal: AbortSignal): Promise<CallToolResult> {
  try {
    const checked = tool.check(args);
    const structured = await tool.call(checked, { req, res, log: req.log, requestId: req.requestId, signal });
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (err) {
    return toolError(err, req);
  }
}

function toolError(err: unknown, req: Request): CallToolResult {
  const requestId = req.requestId;
  let body: { code: string; message: string; requestId: string };
  if (err instanceof ApiError && err.status < 500) {
    body = { code: err.code, message: err.message, requestId };
  } else {
    // As over HTTP: internals go to the log under the request id, never to the caller.
    req.log.error({ err, requestId }, 'tool call failed');
    const unavailable = err instanceof ApiError && err.status === 503;
    body = {
      code: unavailable ? err.code : 'internal_error',
      message: unavailable ? err.message : `Something went wrong on our side; quote request id ${requestId} when reporting it.`,
      requestId,
    };
  }
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}
