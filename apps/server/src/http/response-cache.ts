// Serves repeated reads from the bytes of an earlier identical response. An entry is stored only after its request
// went the whole way (request validation, handler, response validation) and answered 200, and it is tagged with
// the data version it was computed from, so a hit is byte-for-byte what the full path would answer now.
import type { NextFunction, Request, Response } from 'express';

export interface ResponseCacheSource {
  /** Identifies the data the responses depend on; null while no fresh data is loaded (nothing is served then). */
  currentVersion(): object | null;
  /** Whether a request may be cached at all (e.g. only GETs of read operations). */
  cacheable(req: Request): boolean;
}

interface Entry {
  version: object;
  body: Buffer;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly source: ResponseCacheSource, private readonly maxEntries = 2000) {}

  /** Express middleware: answers from the cache when it can, else remembers the 200 JSON answer. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (!this.source.cacheable(req)) return next();
      const key = req.originalUrl;
      const version = this.source.currentVersion();
      const hit = version ? this.entries.get(key) : undefined;
      if (hit && hit.version === version) {
        res.status(200).type('application/json; charset=utf-8').send(hit.body);
        return;
      }
      // The version the handler reads may change while it runs; tag the entry with the one current at the end.
      const json = res.json.bind(res);
      res.json = (body: unknown) => {
        const result = json(body);
        const after = this.source.currentVersion();
        if (res.statusCode === 200 && after) this.remember(key, after, Buffer.from(JSON.stringify(body)));
        return result;
      };
      next();
    };
  }

  private remember(key: string, version: object, body: Buffer): void {
    if (this.entries.size >= this.maxEntries) {
      // Drop the oldest insertions: cheap, and every entry dies with its version anyway.
      for (const k of this.entries.keys()) {
        this.entries.delete(k);
        if (this.entries.size < this.maxEntries * 0.9) break;
      }
    }
    this.entries.set(key, { version, body });
  }
}
