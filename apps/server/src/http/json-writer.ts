// Every JSON answer of a host leaves through one writer: its bytes are made once (frozen-memo.ts: a frozen list
// entry's text is remembered, so a page of 100 entries is joined, not serialized again) and, for a cacheable GET
// answered 200, the very same bytes are kept in the response cache (response-cache.ts) for the next identical read.
// It replaces Express's res.json on each response before the contract validator runs, so the validator's response
// check (which wraps res.json in its turn) judges the body first and only an approved body reaches this writer.
import type { NextFunction, Request, Response } from 'express';
import { bodyBytes } from './frozen-memo';
import type { ResponseCache } from './response-cache';

export function jsonWriter(cache: ResponseCache | undefined) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const caching = cache !== undefined && req.method === 'GET' && cache.cacheable(req.path);
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (body === undefined) return json(body);
      const bytes = bodyBytes(body);
      // Tagged with the version current once the handler finished; a change during the request drops it.
      if (caching && res.statusCode === 200) {
        const version = cache.currentVersion();
        if (version) cache.store(req, version, bytes);
      }
      if (!res.get('Content-Type')) res.set('Content-Type', 'application/json; charset=utf-8');
      return res.send(bytes);
    };
    next();
  };
}
