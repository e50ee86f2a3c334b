// The one place an error becomes a response: `{code, message, requestId}` with the X-Request-Id header, whoever
// raised it (a handler, the contract validator, the body parser, Express). Messages are our own sentences: text
// of a library (zlib's "incorrect header check", the validator's "malformed uri'") never reaches a caller. The
// validator's per-field findings become our sentences naming the parameter or body field and the bound of the
// contract (validation-messages.ts).
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError, codeForStatus } from './errors';
import { allowHeader } from './head-as-get';
import { validatorSentence } from './validation-messages';
import { isDatabaseUnavailable } from '../database-unavailable';

/** What a 503 for a database outage asks: PostgreSQL restarts or fails over in seconds. */
const DATABASE_RETRY_AFTER_S = 5;

interface AnyError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
  code?: string;
  headers?: Record<string, string>;
  errors?: Array<{ path?: string; message?: string; errorCode?: string }>;
}

/** Where a validator finding points: a parameter or a body field, not the URL as a whole. */
const FIELD_PATH = /^[./](?:query|body|params|path|headers|cookies)\b/;

function messageOf(err: AnyError, status: number, code: string, req: Request, bodyLimitBytes: number): string {
  switch (code) {
    case 'invalid_json': return 'The request body is not valid JSON.';
    case 'payload_too_large': return `The request body is larger than ${bodyLimitBytes} bytes.`;
    case 'unsupported_media_type': return 'Send the request body as application/json.';
    case 'route_not_found': return `No route ${req.method} ${req.path}.`;
    case 'method_not_allowed': return `${req.method} is not allowed on ${req.path}.`;
    default: break;
  }
  let findings = (err.errors ?? []).filter((e) => FIELD_PATH.test(e.path ?? ''));
  // A value matching none of several forms: one sentence for it, not one per form's complaint.
  const alternatives = findings.filter((e) => /^(anyOf|oneOf)\./.test(e.errorCode ?? ''));
  if (alternatives.length > 0) findings = alternatives.slice(0, 1);
  if (findings.length > 0) return findings.map(validatorSentence).join(' ');
  if ((err.errors ?? []).some((e) => /malformed uri/i.test(e.message ?? ''))) return 'The request path is not correctly percent-encoded.';
  if (typeof err.code === 'string' && /^(Z_|ERR_BROTLI|ERR__ERROR)/.test(err.code)) return 'The request body could not be decompressed (Content-Encoding).';
  switch (err.type) {
    case 'request.aborted': return 'The request body ended before all of it arrived.';
    case 'request.size.invalid': return 'The request body is not as long as its Content-Length says.';
    default: break;
  }
  return status === 400 ? 'The request is malformed.' : 'The request cannot be served.';
}

/** Renders an error as a page for requests that want one (see web/error-pages.ts); undefined keeps the JSON body. */
export type ErrorPageRenderer = (
  req: Request,
  error: { status: number; code: string; message: string; requestId: string; headers: Record<string, string> },
) => { type: string; body: string; headers?: Record<string, string> } | undefined;

export function errorHandler(logger: Logger, bodyLimitBytes: number, errorPage?: ErrorPageRenderer) {
  return (err: AnyError, req: Request, res: Response, _next: NextFunction): void => {
    const requestId = req.requestId ?? 'unknown';
    const ours = err instanceof ApiError;
    // A database that does not answer is "try again shortly", not a fault of ours: 503 with Retry-After.
    const outage = !ours && (err.status ?? err.statusCode ?? 500) >= 500 && isDatabaseUnavailable(err);
    const status = outage ? 503 : err.status ?? err.statusCode ?? 500;
    let code = ours ? err.code : codeForStatus(status, err);
    let message: string;
    if (outage) {
      (req.log ?? logger).warn({ err, requestId }, 'database unavailable');
      code = 'service_unavailable';
      message = `The database is unavailable; try again in a few seconds (request id ${requestId}).`;
    } else if (status >= 500 && !ours) {
      // Never leak internals: the log has the details under the same request id.
      (req.log ?? logger).error({ err, requestId }, 'request failed');
      code = status === 503 ? 'service_unavailable' : 'internal_error';
      message = `Something went wrong on our side; quote request id ${requestId} when reporting it.`;
    } else if (ours) {
      message = err.message;
    } else {
      message = messageOf(err, status, code, req, bodyLimitBytes);
    }
    const headers: Record<string, string> = { ...(err.headers ?? {}), ...(ours ? err.extraHeaders : {}), ...(outage ? { 'Retry-After': String(DATABASE_RETRY_AFTER_S) } : {}) };
    if (status === 405) {
      const allow = headers.Allow ?? headers.allow ?? 'GET';
      delete headers.allow;
      headers.Allow = allowHeader(allow.split(/,\s*/).filter(Boolean));
    }
    if (res.headersSent) return;
    const page = errorPage?.(req, { status, code, message, requestId, headers });
    if (page) {
      res.status(status).set(headers).set(page.headers ?? {}).set('Vary', 'Accept').type(page.type).send(page.body);
      return;
    }
    res.status(status).set(headers).json({ code, message, requestId });
  };
}
