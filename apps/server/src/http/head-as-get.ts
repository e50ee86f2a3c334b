// HEAD is answered wherever GET is (RFC 9110 9.3.2): the request goes through the GET operation, and Node, which
// decided when the response was created that a HEAD response has no body, sends the same status and headers
// without it. The contract lists GET only; its description says so.
import type { NextFunction, Request, Response } from 'express';

export function headAsGet(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'HEAD') return next();
  req.method = 'GET';
  // A streaming GET (Server-Sent Events) never ends on its own; for HEAD the headers are the whole answer, so the
  // response ends as soon as they are out (the stream's handler sees the close and cleans up).
  const endAfter = <A extends unknown[], R>(fn: (...args: A) => R) =>
    function (this: Response, ...args: A): R {
      const result = fn.apply(this, args);
      if (!res.writableEnded) res.end();
      return result;
    };
  res.write = endAfter(res.write) as typeof res.write;
  res.flushHeaders = endAfter(res.flushHeaders);
  next();
}

/** The Allow header for a set of methods: HEAD goes wherever GET does. */
export function allowHeader(methods: Iterable<string>): string {
  const set = new Set([...methods].map((m) => m.toUpperCase()));
  if (set.has('GET')) set.add('HEAD');
  return [...set].join(', ');
}
