import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

// A caller's id is kept only when it is short and plain, so it can never smuggle text into logs or headers.
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
  }
}

/** The caller's X-Request-Id when it is acceptable, else a new one. */
export function pickRequestId(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && ACCEPTABLE_ID.test(incoming) ? incoming : randomUUID();
}

export function requestId(req: Request, res: Response, next: NextFunction): void {
  req.requestId = pickRequestId(req.headers['x-request-id']);
  res.setHeader('X-Request-Id', req.requestId);
  next();
}
