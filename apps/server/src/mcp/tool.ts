// What a tool is here: the MCP metadata (name, title, description, annotations), its schemas, and a call that runs
// one or more contract operations through the very handlers the HTTP routes use (same services, rate limits and
// error codes: an ApiError thrown there becomes a tool error with the same code).
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { OperationHandler } from '../http/operations';
import { unstorableParameters } from '../http/storable-input';
import { argumentCheck } from './arguments';
import type { JsonSchema, OperationShape } from '../http/operation-shapes';

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The HTTP request that carried the tools/call: its client address is the one rate limits count. */
export interface CallContext {
  req: Request;
  res: Response;
  log: Logger;
  requestId: string;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  /** Runs with checked arguments (defaults applied); throws ApiError like the HTTP handlers do. */
  call(args: Record<string, unknown>, ctx: CallContext): Promise<Record<string, unknown>>;
}

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  readOnly: boolean;
  destructive?: boolean;
  idempotent: boolean;
  openWorld: boolean;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  call(args: Record<string, unknown>, ctx: CallContext): Promise<Record<string, unknown>>;
}

export type CheckedTool = Tool & { check: (args: Record<string, unknown>) => Record<string, unknown> };

export function defineTool(spec: ToolSpec): CheckedTool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    annotations: {
      title: spec.title,
      readOnlyHint: spec.readOnly,
      destructiveHint: spec.destructive ?? false,
      idempotentHint: spec.idempotent,
      openWorldHint: spec.openWorld,
    },
    inputSchema: spec.inputSchema,
    outputSchema: spec.outputSchema,
    check: argumentCheck(spec.name, spec.inputSchema),
    call: spec.call,
  };
}

export type HandlerMap = Record<string, OperationHandler<unknown>>;

/** Runs one operation's handler with tool arguments split into path, query and body as the HTTP request would carry them. */
export async function invokeOperation(handlers: HandlerMap, shape: OperationShape, args: Record<string, unknown>, ctx: CallContext): Promise<Record<string, unknown>> {
  const handler = handlers[shape.operationId];
  if (!handler) throw new Error(`no handler for ${shape.operationId}`);
  const parts: Record<'path' | 'query' | 'body', Record<string, unknown>> = { path: {}, query: {}, body: {} };
  for (const [name, value] of Object.entries(args)) {
    const source = shape.sources[name];
    if (source && value !== undefined) parts[source][name] = value;
  }
  // The HTTP edge refuses these before any handler (http/storable-input.ts); tool arguments meet the same rule.
  const unstorable = unstorableParameters(parts.path, parts.query, 'argument');
  if (unstorable) throw unstorable;
  const result = (await handler({
    req: ctx.req,
    res: ctx.res,
    log: ctx.log,
    requestId: ctx.requestId,
    path: parts.path as never,
    query: parts.query as never,
    body: (shape.hasBody ? parts.body : undefined) as never,
  })) as { status: number; body?: unknown };
  if (result.body === undefined || result.body === null || typeof result.body !== 'object') throw new Error(`${shape.operationId} answered without a JSON object`);
  return result.body as Record<string, unknown>;
}

/** Only the arguments an operation knows (a tool may add its own, such as a wait). */
export function argumentsOf(shape: OperationShape, args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([name]) => name in shape.sources));
}
