// Cross-origin access for browsers, configured once for both hosts (CORS_ORIGINS). The API is public and reads need
// no credentials, so the default is any origin; credentials are never allowed (no cookie or auth header exists, and
// a wildcard with credentials would be refused by browsers anyway). Preflights of any path are answered 204 here,
// before the contract's router, so a browser never sees a 405 for OPTIONS.
import cors from 'cors';
import type * as http from 'node:http';

export const CORS_ALLOWED_HEADERS = ['Content-Type', 'X-Request-Id', 'Last-Event-ID', 'Accept'];
export const CORS_EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'Allow'];

export type CorsHandler = (req: http.IncomingMessage, res: http.ServerResponse, next: (err?: unknown) => void) => void;

export function corsHandler(origins: '*' | string[]): CorsHandler {
  return cors({
    origin: origins === '*' ? '*' : origins,
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
    preflightContinue: false,
    optionsSuccessStatus: 204,
  }) as CorsHandler;
}
