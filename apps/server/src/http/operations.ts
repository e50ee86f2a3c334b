// Types that tie a handler to its operation in the generated contract: what it receives (path, query, body) and
// what it may answer (the 2xx statuses and bodies the YAML declares). A handler map typed `Handlers<Ops>` fails to
// compile when an operation of the document has no handler.
import type { Request, Response } from 'express';
import type { Logger } from 'pino';

type TextMediaType = 'text/plain' | 'text/markdown' | 'text/javascript' | 'text/css' | 'application/xml' | 'application/linkset+json' | 'application/mcp-server-card+json' | 'application/http-message-signatures-directory+json' | 'image/svg+xml';
type Responses<Op> = Op extends { responses: infer R } ? R : never;
// 304: a conditional GET answered from the caller's copy (the badge); 303: a form's post-redirect-get (postDisputeForm).
type SuccessStatus<R> = { [S in keyof R]: S extends 200 | 201 | 202 | 204 | 303 | 304 ? S : never }[keyof R];
type ContentOf<T> = T extends { content: infer C } ? C : never;

type ResultFor<S, C> = [C] extends [never]
  ? { status: S; headers?: Record<string, string> }
  :
      | (C extends { 'application/json': infer B } ? { status: S; body: B; headers?: Record<string, string> } : never)
      | (C extends { 'text/html': unknown } ? { status: S; html: string; headers?: Record<string, string> } : never)
      | (C extends { 'application/yaml': unknown } ? { status: S; text: string; type: 'application/yaml'; headers?: Record<string, string> } : never)
      // Documents written as text in their own media type (robots.txt, llms.txt, sitemaps, linksets, server cards).
      | ([Extract<keyof C, TextMediaType>] extends [never] ? never : { status: S; text: string; type: Extract<keyof C, TextMediaType>; headers?: Record<string, string> })
      // The handler has written the response itself (an event stream) and owns it until it ends.
      | (C extends { 'text/event-stream': unknown } ? { status: S; streamed: true } : never)
      // Downloads written row by row (the open dataset): never buffered, so never validated as a body.
      | (C extends { 'text/csv': unknown } | { 'application/x-ndjson': unknown } ? { status: S; streamed: true } : never);

export type OperationResult<Op> = {
  [S in SuccessStatus<Responses<Op>>]: ResultFor<S, ContentOf<Responses<Op>[S]>>;
}[SuccessStatus<Responses<Op>>];

type Params<Op, Where extends 'path' | 'query'> = Op extends { parameters: { [K in Where]?: infer P } }
  ? [P] extends [undefined] ? Record<string, never> : NonNullable<P>
  : Record<string, never>;
type Body<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : undefined;

export interface OperationContext<Op> {
  req: Request;
  res: Response;
  log: Logger;
  requestId: string;
  /** Path parameters, already validated by the contract. */
  path: Params<Op, 'path'>;
  /** Query parameters, validated, coerced and with the document's defaults applied. */
  query: Params<Op, 'query'>;
  /** The request body, validated (undefined when the operation has none or none was sent). */
  body: Body<Op>;
}

export type OperationHandler<Op> = (ctx: OperationContext<Op>) => Promise<OperationResult<Op>>;

export type Handlers<Ops> = { [K in keyof Ops]: OperationHandler<Ops[K]> };
