// Answers the plain, valid GETs of the ranked reads (operations 1-3) without going through Express.
//
// Why: a read that misses the response cache cost ~20x the raw write of its bytes, and profiles of those misses
// (apps/bench/README.md, "Profiling") put the read's own work at ~10 % of the CPU: the rest was the generic stack
// every request crosses (the validator's per-request route lookup, a child logger per request, the router walking
// ~60 routes, a second JSON serialization for the cache). These three operations are the pages people and crawlers
// land on, so they get a direct path: the same contract rules, compiled once from the same YAML, around the very
// handlers the Express routes call.
//
// The direct path only ever answers a request the full path would answer 200, byte for byte: anything it is not
// sure of (an unknown or repeated parameter, an empty value, a percent-escape in the path, a value the contract
// refuses, a handler error, an answer the contract refuses) is handed to Express untouched, which answers it as
// before, errors and all. A test compares the two paths on random queries.
import type * as http from 'node:http';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Logger } from 'pino';
import type { ResponseValidation } from '../config';
import { operationShape } from '../mcp/operation-schemas';
import { canonicalQueryString } from './canonical-query';
import { memoizedValidator, stringifyBody, type MemoizedValidator } from './frozen-memo';
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
}

interface Parsed {
  route: DirectRoute;
  path: Record<string, string>;
  query: Record<string, unknown>;
  pathname: string;
  /** The URL as the cache and the full path's recorder key it (path and canonical query). */
  cacheKey: string;
}

export interface DirectReadsOptions {
  specPath: string;
  operationIds: string[];
  handlers: Record<string, OperationHandler<unknown>>;
  cache: ResponseCache;
  logger: Logger;
  validateResponses: ResponseValidation;
}

export class DirectReads {
  private readonly routes: DirectRoute[];
  private readonly cache: ResponseCache;
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
    this.routes = options.operationIds.map((operationId) => {
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
      return { operationId, pattern, pathNames, queryGrammar, validateInput: ajv.compile(shape.input), validateOutput: memoizedValidator((schema) => answers.compile(schema), shape.output), handler };
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
    if (!parsed) return false;
    void this.answer(req, res, parsed, fallback);
    return true;
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
      let canonical: string;
      try {
        canonical = canonicalQueryString(rawQuery);
      } catch {
        return null;
      }
      return { route, path, query, pathname, cacheKey: canonical ? `${pathname}?${canonical}` : pathname };
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

  private async answer(req: http.IncomingMessage, res: http.ServerResponse, parsed: Parsed, fallback: () => void): Promise<void> {
    const started = performance.now();
    const requestId = pickRequestId(req.headers['x-request-id']);
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
    } catch {
      // A 404, an invalid cursor, an unavailable database: the full path answers it with its error body.
      return this.handBack(fallback);
    }
    if (out.status !== 200 || out.body === undefined || out.headers || out.html !== undefined || out.text !== undefined || out.streamed) {
      return this.handBack(fallback);
    }
    if (this.validateResponses !== 'off' && !parsed.route.validateOutput(out.body)) {
      // 'fail' answers 500 and 'log' logs: the full path does both exactly as for any other operation.
      return this.handBack(fallback);
    }
    // Tagged with the version current once the handler finished, like the full path's recorder does.
    const version = this.cache.currentVersion();
    const bytes = Buffer.from(stringifyBody(out.body));
    if (version && this.cache.cacheable(parsed.pathname)) this.cache.store(parsed.cacheKey, version, bytes);
    res.writeHead(200, {
      'X-Request-Id': requestId,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': bytes.length,
    });
    res.end(bytes);
    this.counts.answered++;
    // The line pino-http writes for the full path, without a child logger per request.
    if (this.logger.isLevelEnabled('info')) {
      this.logger.info(
        { req: { id: requestId, method: 'GET', url: req.url }, res: { statusCode: 200 }, responseTime: Math.round(performance.now() - started) },
        'request completed',
      );
    }
  }

  private handBack(fallback: () => void): void {
    this.counts.handedBack++;
    fallback();
  }
}
