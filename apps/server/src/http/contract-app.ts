// Builds an Express app whose routes are the operations of one OpenAPI document. The document is the router:
// requests and responses are validated against it, each operationId is bound to its handler, and every error,
// whoever raised it, leaves as `{code, message, requestId}` with the X-Request-Id header.
import * as fs from 'node:fs';
import express, { type NextFunction, type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import { parse as parseYaml } from 'yaml';
import type { ResponseValidation } from '../config';
import { canonicalQuery } from './canonical-query';
import { securityGuard, type SecurityRequirement, type SecurityScheme } from './contract-security';
import { corsHandler } from './cors';
import { ApiError } from './errors';
import { errorHandler, type ErrorPageRenderer } from './error-handler';
import { allowHeader, headAsGet } from './head-as-get';
import type { Handlers, OperationHandler } from './operations';
import { requestId } from './request-id';
import { refuseUnstorableInput } from './storable-input';
import { strictNumbers } from './strict-numbers';
import type { ResponseCache } from './response-cache';
import { jsonWriter } from './json-writer';
import { keepRouteMatchers } from './route-matchers';

export const BODY_LIMIT_BYTES = 1024 * 1024;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface ContractAppOptions<Ops> {
  specPath: string;
  handlers: Handlers<Ops>;
  logger: Logger;
  validateResponses: ResponseValidation;
  /** Origins allowed to call from a browser (see cors.ts). */
  corsOrigins: '*' | string[];
  /** Answers repeated reads from validated earlier answers (see response-cache.ts). */
  responseCache?: ResponseCache;
  /** Renders an error as a page when the request is for one (see web/error-pages.ts); undefined keeps the JSON body. */
  errorPage?: ErrorPageRenderer;
}

interface Route {
  path: string;
  expressPath: string;
  method: (typeof METHODS)[number];
  operationId: string;
  /** The operation declares a request body: only then is one read (any other body is ignored, as on a GET). */
  takesBody: boolean;
  /** The operation's security requirement (or the document's), enforced by contract-security.ts. */
  security: SecurityRequirement;
}

interface ContractDoc {
  paths: Record<string, Record<string, { operationId?: string; requestBody?: unknown; security?: SecurityRequirement }>>;
  security?: SecurityRequirement;
  components?: { securitySchemes?: Record<string, SecurityScheme> };
}

const readDoc = (specPath: string) => parseYaml(fs.readFileSync(specPath, 'utf8')) as ContractDoc;

export function readRoutes(specPath: string): Route[] {
  const doc = readDoc(specPath);
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      if (!operation.operationId) throw new Error(`${specPath}: ${method.toUpperCase()} ${path} has no operationId`);
      routes.push({
        path, method, operationId: operation.operationId, takesBody: operation.requestBody !== undefined,
        security: operation.security ?? doc.security, expressPath: path.replace(/\{([^}]+)\}/g, ':$1'),
      });
    }
  }
  return routes;
}

export function createContractApp<Ops>(options: ContractAppOptions<Ops>): express.Express {
  const { specPath, logger } = options;
  const handlers = options.handlers as unknown as Record<string, OperationHandler<unknown>>;
  const routes = readRoutes(specPath);
  keepRouteMatchers();
  // The compiler checks the handler map against the generated types; this catches a document edited after build.
  const missing = routes.filter((r) => typeof handlers[r.operationId] !== 'function').map((r) => r.operationId);
  if (missing.length > 0) throw new Error(`${specPath}: no handler for operation(s) ${missing.join(', ')}`);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestId);
  app.use(headAsGet);
  app.use(
    pinoHttp({
      logger,
      genReqId: (req) => (req as Request).requestId,
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      serializers: {
        req: (req) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(corsHandler(options.corsOrigins));
  app.use(canonicalQuery);
  // Before the validator, so its response check (which wraps res.json when it runs) sees the body first.
  app.use(jsonWriter(options.responseCache));
  // Only operations that declare a body read one: a body sent with a GET, or with a POST that takes none (resuming a
  // webhook), has no meaning (RFC 9110) and is ignored, so its type or encoding can never turn the answer into a 400
  // or 415 the operation does not list.
  // Only a method an operation of this path takes reads its body: a wrong method (POST /healthz with JSON) is a
  // 405 whatever the body is, never a 400, 413 or 415 about a body nobody would read.
  const json = express.json({ limit: BODY_LIMIT_BYTES, strict: true, type: ['application/json', 'application/*+json'] });
  // The pages' forms post urlencoded (postDisputeForm); an operation that declares JSON only still answers 415.
  const form = express.urlencoded({ extended: false, limit: BODY_LIMIT_BYTES, parameterLimit: 100, type: 'application/x-www-form-urlencoded' });
  const takesBody = routes.filter((r) => r.takesBody).map((r) => ({ method: r.method.toUpperCase(), pattern: pathPattern(r.path) }));
  const readsBody = (req: Request) => takesBody.some((r) => r.method === req.method && r.pattern.test(req.path));
  app.use((req: Request, res: Response, next: NextFunction) =>
    readsBody(req) ? json(req, res, (err?: unknown) => (err ? next(err) : form(req, res, next))) : next(),
  );
  // Credentials before the validator, as its own security check came first: a request without them is our 401
  // with its WWW-Authenticate challenge (contract-security.ts), whatever else is wrong with it.
  // A path matching several templates is the most literal one's (`/x/new` before `/x/{id}`), as the validator routes.
  const schemes = readDoc(specPath).components?.securitySchemes ?? {};
  const secured = routes
    .map((r) => ({ method: r.method.toUpperCase(), pattern: pathPattern(r.path), params: r.path.split('{').length, guard: securityGuard(r.operationId, r.security, schemes) }))
    .sort((a, b) => a.params - b.params);
  if (secured.some((r) => r.guard)) {
    app.use((req: Request, res: Response, next: NextFunction) => {
      const guard = secured.find((r) => r.method === req.method && r.pattern.test(req.path))?.guard;
      return guard ? guard(req, res, next) : next();
    });
  }
  app.use(
    OpenApiValidator.middleware({
      apiSpec: specPath,
      // Enforced above (contract-security.ts), which refuses to start on a scheme it cannot enforce.
      validateSecurity: false,
      validateRequests: { allowUnknownQueryParameters: false },
      validateResponses:
        options.validateResponses === 'off'
          ? false
          : options.validateResponses === 'log'
            ? {
                onError: (err, body, req) =>
                  logger.error({ requestId: (req as Request).requestId, err: err.errors ?? err.message, body }, 'response breaks the contract'),
              }
            : true,
      validateFormats: true,
      ajvFormats: { mode: 'full' },
      $refParser: { mode: 'dereference' },
      ignoreUndocumented: false,
    }),
  );
  app.use(refuseUnstorableInput);
  app.use(strictNumbers);

  for (const route of routes) {
    const handler = handlers[route.operationId];
    app[route.method](route.expressPath, (req: Request, res: Response, next: NextFunction) => {
      handler({
        req,
        res,
        log: req.log,
        requestId: req.requestId,
        path: req.params as never,
        query: req.query as never,
        body: req.body as never,
      }).then((result) => {
        const out = result as { status: number; body?: unknown; html?: string; text?: string; type?: string; streamed?: true; headers?: Record<string, string> };
        if (out.streamed) return;
        if (out.headers) res.set(out.headers);
        res.status(out.status);
        if (out.html !== undefined) res.type('html').send(out.html);
        else if (out.text !== undefined) res.type(out.type ?? 'text/plain').send(out.text);
        else if (out.body === undefined) res.end();
        else res.json(out.body);
      }, next);
    });
  }

  // The validator answers unknown paths (404) and wrong methods (405) itself; these are the safety net for
  // anything that slipped past it, so no request ever gets Express's HTML default.
  app.use((req: Request, _res: Response, next: NextFunction) => {
    const allowed = routes.filter((r) => matches(r.path, req.path)).map((r) => r.method.toUpperCase());
    if (allowed.length > 0) {
      next(new ApiError(405, 'method_not_allowed', `${req.method} is not allowed on ${req.path}.`, { Allow: allowHeader(allowed) }));
    } else {
      next(new ApiError(404, 'route_not_found', `No route ${req.method} ${req.path}.`));
    }
  });
  app.use(errorHandler(logger, BODY_LIMIT_BYTES, options.errorPage));
  return app;
}

function pathPattern(template: string): RegExp {
  const escape = (part: string) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
  return new RegExp(`^${template.split(/\{[^}]+\}/).map(escape).join('[^/]+')}$`);
}

function matches(template: string, actual: string): boolean {
  return pathPattern(template).test(actual);
}
