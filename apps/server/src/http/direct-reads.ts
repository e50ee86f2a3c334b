// Answers the plain, valid GETs of the ranked reads (operations 1-3) without going through Express.
//
// Why: a read that misses the response cache cost ~20x the raw write of its bytes, and profiles of those misses
// (apps/bench/README.md, "Profiling") put the read's own work at ~10 % of the CPU: the rest was the generic stack
// every request crosses (the validator's per-request route lookup, a child logger per request, the router walking
// ~60 routes, a second JSON serialization for the cache). These three operations are the pages people and crawlers
// land on, so they get a direct path: the same contract rules, compiled once from the same YAML, around the very
// handlers the Express routes call.
//
// The direct path only ever answers what the full path would answer, byte for byte: a 200, or an error a handler
// raised as ours (404, invalid cursor). Anything it is not sure of (an unknown or repeated parameter, an empty value,
// a percent-escape in the path, a value the contract refuses, any other handler error, an answer the contract
// refuses) is handed to Express untouched, which answers it as before. A test compares the two paths on random queries.
//
// The pages' server side reads the same way, in process (web/in-process-client.ts): `read` runs an operation the
// pages use through these compiled rules and hands back the answer's bytes, or the error a handler raised, or
// nothing when the full path must judge.
import type * as http from 'node:http';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Logger } from 'pino';
import type { ResponseValidation } from '../config';
import { operationShape } from './operation-shapes';
import { ApiError, errorBody } from './errors';
import { bodyBytes, memoizedValidator, type MemoizedValidator } from './frozen-memo';
import type { OperationHandler } from './operations';
import { OpenApiReader } from './openapi-resolve';
import { pickRequestId } from './request-id';
import type { ResponseCache } from './response-cache';
import { INTEGER_GRAMMAR, NUMBER_GRAMMAR } from './strict-numbers';
import { hasUnstorableText } from './storable-input';

interface DirectRoute {
  operationId: string;
  /** The path template as a regular expression, one capture per path parameter. */
  pattern: RegExp;
  pathNames: string[];
  /** Every query parameter the operation knows, with the grammar of its raw value (null: any string). */
  queryGrammar: Map<string, RegExp | null>;
  validateInput: ValidateFunction;
  validateOutput: MemoizedValidator;
  handler: OperationHandler<unknown>;
  /** Answered by the listener's direct path (the others are the pages' in-process reads only). */
  listener: boolean;
}

interface Parsed {
  route: DirectRoute;
  path: Record<string, string>;
  query: Record<string, unknown>;
  pathname: string;
  url: string;
}

/** What an in-process read gives: the answer's bytes, the error its handler raised, or `unsure` (the full path judges). */
export type ReadOutcome = { kind: 'answer'; bytes: Buffer } | { kind: 'error'; error: ApiError } | { kind: 'unsure' };

export interface DirectReadsOptions {
  specPath: string;
  /** Operations the listener answers directly. */
  operationIds: string[];
  /** More operations read in process only (by the pages), never answered directly to a client. */
  inProcessOperationIds?: string[];
  handlers: Record<string, OperationHandler<unknown>>;
  cache?: ResponseCache;
  logger: Logger;
  validateResponses: ResponseValidation;
}

export class DirectReads {
  private readonly routes: DirectRoute[];
  private readonly cache: ResponseCache | undefined;
  private readonly logger: Logger;
  private readonly validateResponses: ResponseValidation;
  /** Requests answered here, and requests handed back to Express after parsing (the tests read them). */
  readonly counts = { answered: 0, handedBack: 0 };

  constructor(options: DirectReadsOptions) {
    // The same JSON Schema rules the validator applies: formats in full, unknown parameters refused, defaults filled.
    const ajv = new Ajv2020({ allErrors: false, useDefaults: true, strict: false, coerceTypes: false });
    addFormats(ajv, { mode: 'full' });
    // Answers are checked, never changed: no defaults written into them.
    const answers = new Ajv2020({ allErrors: false, useDefaults: false, strict: false, coerceTypes: false });
    addFormats(answers, { mode: 'full' });
    const reader = new OpenApiReader(options.specPath);
    const ids = [...new Set([...options.operationIds, ...(options.inProcessOperationIds ?? [])])];
    this.routes = ids.map((operationId) => {
      const shape = operationShape(reader, operationId);
      if (shape.method !== 'get' || shape.hasBody) throw new Error(`${operationId}: only bodiless GETs can be answered directly`);
      const handler = options.handlers[operationId];
      if (typeof handler !== 'function') throw new Error(`no handler for ${operationId}`);
      const pathNames: string[] = [];
      const pattern = new RegExp(
        `^${shape.path
          .split(/(\{[^}]+\})/)
          .map((part) => {
            const name = /^\{([^}]+)\}$/.exec(part)?.[1];
            if (!name) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
            pathNames.push(name);
            return '([^/%]+)';
          })
          .join('')}$`,
      );
      const queryGrammar = new Map<string, RegExp | null>();
      for (const [name, source] of Object.entries(shape.sources)) {
        if (source !== 'query') continue;
        const types = [shape.input.properties[name].type ?? []].flat();
        queryGrammar.set(name, types.includes('number') ? NUMBER_GRAMMAR : types.includes('integer') ? INTEGER_GRAMMAR : null);
      }
      return { operationId, pattern, pathNames, queryGrammar, validateInput: ajv.compile(shape.input), validateOutput: memoizedValidator((schema) => answers.compile(schema), shape.output), handler, listener: options.operationIds.includes(operationId) };
    });
    this.cache = options.cache;
    this.logger = options.logger;
    this.validateResponses = options.validateResponses;
  }

  /**
   * Takes the request when it is a plain valid read of one of the operations; `fallback` runs the full path when
   * the answer turns out to be anything but a 200 the contract accepts. False: the request is Express's.
   */
  serve(req: http.IncomingMessage, res: http.ServerResponse, fallback: () => void): boolean {
    if (req.method !== 'GET' || !req.url) return false;
    const parsed = this.parse(req.url);
    if (!parsed || !parsed.route.listener) return false;
    void this.answer(req, res, parsed, fallback);
    return true;
  }

  /**
   * A GET of `url` (path and query) run in process, as `serve` would answer it; null when no compiled operation
   * takes it as a plain valid read. The answer is stored in the response cache as the direct path stores its own.
   */
  read(url: string, requestId: string): Promise<ReadOutcome> | null {
    const parsed = this.parse(url);
    return parsed && this.run(parsed, undefined, undefined, requestId);
  }

  private parse(url: string): Parsed | null {
    const at = url.indexOf('?');
    const pathname = at < 0 ? url : url.slice(0, at);
    for (const route of this.routes) {
      const match = route.pattern.exec(pathname);
      if (!match) continue;
      const path: Record<string, string> = {};
      route.pathNames.forEach((name, i) => (path[name] = match[i + 1]));
      const rawQuery = at < 0 ? '' : url.slice(at + 1);
      const query = this.parseQuery(route, rawQuery);
      if (!query) return null;
      const input: Record<string, unknown> = { ...query, ...path };
      if (!route.validateInput(input)) return null;
      // Defaults the validator filled in belong to the query (path parameters are always present).
      for (const name of route.queryGrammar.keys()) if (input[name] !== undefined) query[name] = input[name];
      return { route, path, query, pathname, url };
    }
    return null;
  }

  /** The query's values, or null when any pair is one the full path should judge. */
  private parseQuery(route: DirectRoute, raw: string): Record<string, unknown> | null {
    const query: Record<string, unknown> = {};
    for (const pair of raw.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      if (eq <= 0) return null;
      let name: string;
      let value: string;
      try {
        name = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, ' '));
        value = decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
      } catch {
        return null;
      }
      const grammar = route.queryGrammar.get(name);
      if (grammar === undefined || value === '' || name in query || hasUnstorableText(value)) return null;
      if (grammar) {
        if (!grammar.test(value)) return null;
        query[name] = Number(value);
      } else {
        query[name] = value;
      }
    }
    return query;
  }

  /** Runs the handler and checks its answer; `unsure` whenever the full path must answer (see the top). */
  private async run(parsed: Parsed, req: http.IncomingMessage | undefined, res: http.ServerResponse | undefined, requestId: string): Promise<ReadOutcome> {
    let out: { status?: number; body?: unknown; headers?: unknown; html?: unknown; text?: unknown; streamed?: unknown };
    try {
      out = await parsed.route.handler({
        req: req as never,
        res: res as never,
        log: this.logger,
        requestId,
        path: parsed.path as never,
        query: parsed.query as never,
        body: undefined as never,
      });
    } catch (err) {
      // A 404 or an invalid cursor is ours, answered as the error handler writes it; anything else (an unavailable
      // database, a fault) the full path answers, logging it.
      return err instanceof ApiError ? { kind: 'error', error: err } : { kind: 'unsure' };
    }
    if (out.status !== 200 || out.body === undefined || out.headers || out.html !== undefined || out.text !== undefined || out.streamed) {
      return { kind: 'unsure' };
    }
    if (this.validateResponses !== 'off' && !parsed.route.validateOutput(out.body)) {
      // 'fail' answers 500 and 'log' logs: the full path does both exactly as for any other operation.
      return { kind: 'unsure' };
    }
    // Tagged with the version current once the handler finished, like the full path's JSON writer does.
    const cache = this.cache;
    const version = cache?.currentVersion();
    const bytes = bodyBytes(out.body);
    if (cache && version && cache.cacheable(parsed.pathname)) cache.store(req ?? parsed.url, version, bytes);
    return { kind: 'answer', bytes };
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse, parsed: Parsed, fallback: () => void): Promise<void> {
    const started = performance.now();
    const requestId = pickRequestId(req.headers['x-request-id']);
    const outcome = await this.run(parsed, req, res, requestId);
    // A 5xx, even ours, is the full path's to answer and log as an error.
    if (outcome.kind === 'unsure' || (outcome.kind === 'error' && outcome.error.status >= 500)) return this.handBack(fallback);
    // A 4xx of ours (an unknown company, an invalid cursor) is written as the error handler writes it for an API
    // path, `{code, message, requestId}` with its extra headers: the handler is not run a second time by Express.
    const error = outcome.kind === 'error' ? outcome.error : null;
    const status = error ? error.status : 200;
    const bytes = outcome.kind === 'error' ? Buffer.from(errorBody(outcome.error, requestId)) : outcome.bytes;
    res.writeHead(status, {
      ...error?.extraHeaders,
      'X-Request-Id': requestId,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': bytes.length,
    });
    res.end(bytes);
    this.counts.answered++;
    // The line pino-http writes for the full path (warn for a 4xx), without a child logger per request.
    const level = status >= 400 ? 'warn' : 'info';
    if (this.logger.isLevelEnabled(level)) {
      this.logger[level](
        { req: { id: requestId, method: 'GET', url: req.url }, res: { statusCode: status }, responseTime: Math.round(performance.now() - started) },
        'request completed',
      );
    }
  }

  private handBack(fallback: () => void): void {
    this.counts.handedBack++;
    fallback();
  }
}
