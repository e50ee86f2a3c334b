// One error type for the whole service. It extends the validator's HttpError so that the validator's own errors
// and ours take the same road to the one error handler that writes `{code, message, requestId}`.
import { HttpError } from 'express-openapi-validator/dist/framework/types';

export class ApiError extends HttpError {
  readonly code: string;
  readonly extraHeaders: Record<string, string>;

  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super({ status, path: '', name: code, message });
    this.code = code;
    this.extraHeaders = headers;
  }
}

/** Our error's body as the error handler writes it, in the contract's order (the direct reads and the pages' in-process reads). */
export const errorBody = (error: ApiError, requestId: string): string =>
  JSON.stringify({ code: error.code, message: error.message, requestId });

export const notFound = (message: string): ApiError => new ApiError(404, 'not_found', message);
export const badRequest = (message: string, code = 'bad_request'): ApiError => new ApiError(400, code, message);
export const rateLimited = (retryAfterSeconds: number, message = 'Too many requests; try again later.'): ApiError =>
  new ApiError(429, 'rate_limited', message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const serviceUnavailable = (message: string, code = 'service_unavailable', retryAfterSeconds?: number): ApiError =>
  new ApiError(503, code, message, retryAfterSeconds ? { 'Retry-After': String(Math.ceil(retryAfterSeconds)) } : {});

/** The stable `code` for an error raised by the validator, body parser or Express itself. */
export function codeForStatus(status: number, err: { type?: string } = {}): string {
  if (status === 400 && err.type === 'entity.parse.failed') return 'invalid_json';
  switch (status) {
    case 400: return 'bad_request';
    case 401: return 'unauthorized';
    case 403: return 'forbidden';
    case 404: return 'route_not_found';
    case 405: return 'method_not_allowed';
    case 406: return 'not_acceptable';
    case 409: return 'conflict';
    case 413: return 'payload_too_large';
    case 415: return 'unsupported_media_type';
    case 429: return 'rate_limited';
    case 503: return 'service_unavailable';
    default: return status >= 500 ? 'internal_error' : 'bad_request';
  }
}
