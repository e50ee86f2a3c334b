// Reads the query string the way browsers, HTML forms, URLSearchParams and our client write it, then hands the
// validator one canonical spelling.
//
// Why: express-openapi-validator reads a parameter's `allowReserved: false` (the OpenAPI default, a hint telling
// clients to percent-encode) as a rule for servers, and refuses any raw value containing one of
// :/?#[]@!$&'()*+,;= with "must be url encoded". RFC 3986 allows most of them unencoded in a query, `+` is how a
// form writes a space, and encodeURIComponent itself leaves !'()* as they are, so valid searches such as
// `q=Fern+Journal`, `q=(beta)` or `q=it's` were refused. Every pair is therefore decoded here (`+` is a space,
// percent-escapes must be well-formed UTF-8) and re-encoded with every reserved character escaped. The validator
// and Express's query parser then see only unreserved characters and escapes, so the values reach handlers exactly
// as the client meant them, for every query parameter of both documents.
import type { NextFunction, Request, Response } from 'express';
import { badRequest } from './errors';

export const MALFORMED_QUERY = 'The query string is not correctly percent-encoded.';

const decode = (part: string): string => decodeURIComponent(part.replace(/\+/g, ' '));
const encode = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A parameter named twice: no parameter of either contract is a list, so which value counts would be a guess. */
export class RepeatedParameterError extends Error {
  constructor(readonly parameter: string) {
    super(`The query parameter ${JSON.stringify(parameter.length > 100 ? `${parameter.slice(0, 100)}...` : parameter)} is given more than once; give it once.`);
  }
}

/**
 * The canonical form of a raw query string (without `?`); throws URIError when an escape is malformed and
 * RepeatedParameterError when a name comes twice (however it is spelled).
 */
export function canonicalQueryString(raw: string): string {
  const seen = new Set<string>();
  return raw
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = decode(eq < 0 ? pair : pair.slice(0, eq));
      const value = eq < 0 ? '' : pair.slice(eq + 1);
      if (seen.has(key)) throw new RepeatedParameterError(key);
      seen.add(key);
      return `${encode(key)}=${encode(decode(value))}`;
    })
    .join('&');
}

/**
 * The one key of the response cache, for lookup and store alike: the path as sent and the canonical query with its
 * pairs sorted by name; null when the full path refuses the query (a malformed escape, a repeated name), so such a
 * request is never looked up. Two requests with one key get one answer from the full path: canonicalQuery (below)
 * is the first step that reads the query, every later step sees only its canonical form, and with no name given
 * twice the pairs' order reaches nothing but the order of the parsed object's keys, which no handler reads.
 * A key is its own key, so a URL already written canonically can be looked up as it is.
 */
export function canonicalRequestKey(url: string): string | null {
  const at = url.indexOf('?');
  if (at < 0) return url;
  let pairs: string[];
  try {
    pairs = canonicalQueryString(url.slice(at + 1)).split('&');
  } catch {
    return null;
  }
  const query = pairs.length > 1 ? pairs.sort().join('&') : pairs[0];
  return query ? `${url.slice(0, at)}?${query}` : url.slice(0, at);
}

export function canonicalQuery(req: Request, _res: Response, next: NextFunction): void {
  const at = req.url.indexOf('?');
  if (at < 0) return next();
  let canonical: string;
  try {
    canonical = canonicalQueryString(req.url.slice(at + 1));
  } catch (err) {
    return next(badRequest(err instanceof RepeatedParameterError ? err.message : MALFORMED_QUERY));
  }
  req.url = `${req.url.slice(0, at)}?${canonical}`;
  // At the application's root the two are the same; the validator reads originalUrl.
  req.originalUrl = req.url;
  next();
}
