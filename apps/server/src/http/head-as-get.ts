// HEAD is answered wherever GET is (RFC 9110 9.3.2): the request goes through the GET operation, and Node, which
// decided when the response was created that a HEAD response has no body, sends the same status and headers
// without it. The contract lists GET only; its description says so.
import type { NextFunction, Request, Response } from 'express';

export function headAsGet(req: Request, _res: Response, next: NextFunction): void {
  if (req.method === 'HEAD') req.method = 'GET';
  next();
}

/** The Allow header for a set of methods: HEAD goes wherever GET does. */
export function allowHeader(methods: Iterable<string>): string {
  const set = new Set([...methods].map((m) => m.toUpperCase()));
  if (set.has('GET')) set.add('HEAD');
  return [...set].join(', ');
}
