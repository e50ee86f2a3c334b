// The contract's security requirements, enforced here rather than by the validator: the validator's refusal is a
// bare HttpError (no WWW-Authenticate, and a message the error handler can only turn into "cannot be served").
// A request an operation refuses for want of credentials answers our 401 `unauthorized` with the challenge RFC 9110
// §11.6.1 requires (`Bearer realm=...`, RFC 6750 §3) and a sentence saying what is missing or wrong, never echoing
// what was sent. Whether a well-formed token is the right one is the operation's business (webhooks answer 404 for a
// wrong token, so subscription ids cannot be probed).
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './errors';

/** An OpenAPI security scheme as the documents write it. */
export interface SecurityScheme {
  type: string;
  scheme?: string;
  description?: string;
}

/** One operation's requirement: the names of the schemes any one of which lets the request in (none: open). */
export type SecurityRequirement = Array<Record<string, unknown>> | undefined;

// RFC 6750 §2.1: `Bearer` 1*SP b64token. The scheme name is case-insensitive (RFC 9110 §11.1).
const BEARER = /^Bearer +[A-Za-z0-9\-._~+/]+=* *$/i;
const SCHEME_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,32}$/;

export const REALM = 'leaderboard';

/** The challenge of a 401 (one Bearer challenge: every scheme the documents use is an http bearer token). */
export function bearerChallenge(error?: 'invalid_request'): string {
  return error ? `Bearer realm="${REALM}", error="${error}"` : `Bearer realm="${REALM}"`;
}

/** Why `Authorization` does not carry a bearer token, in our words; undefined when it does. */
export function bearerProblem(header: string | undefined): { problem: string; malformed: boolean } | undefined {
  const value = (header ?? '').trim();
  if (value === '') return { problem: 'The request has no Authorization header.', malformed: false };
  if (BEARER.test(value)) return undefined;
  const scheme = value.split(/\s+/)[0];
  if (scheme.toLowerCase() !== 'bearer') {
    const named = SCHEME_NAME.test(scheme) ? `the ${scheme} scheme` : 'another scheme';
    return { problem: `The Authorization header uses ${named}; this operation takes a bearer token.`, malformed: false };
  }
  return { problem: 'The Authorization header has no bearer token, or one that is not a token (RFC 6750: letters, digits and -._~+/, then any =).', malformed: true };
}

/**
 * The guard for one operation: passes a request that meets one of its requirements, else raises the 401.
 * Throws at start-up for a scheme it cannot enforce, so no operation is ever left open by mistake.
 */
export function securityGuard(
  operation: string,
  requirement: SecurityRequirement,
  schemes: Record<string, SecurityScheme>,
): ((req: Request, res: Response, next: NextFunction) => void) | undefined {
  if (!requirement || requirement.length === 0 || requirement.some((r) => Object.keys(r).length === 0)) return undefined;
  const used = requirement.flatMap((r) => Object.keys(r));
  for (const name of used) {
    const scheme = schemes[name];
    if (!scheme) throw new Error(`${operation}: security scheme ${name} is not defined in components.securitySchemes`);
    if (scheme.type !== 'http' || scheme.scheme?.toLowerCase() !== 'bearer') {
      throw new Error(`${operation}: security scheme ${name} (${scheme.type} ${scheme.scheme ?? ''}) is not one this server enforces (http bearer)`);
    }
  }
  const what = schemes[used[0]].description?.trim().replace(/\.$/, '');
  const how = `Send "Authorization: Bearer <token>"${what ? ` with ${what.charAt(0).toLowerCase()}${what.slice(1)}` : ''}.`;
  return (req, _res, next) => {
    const found = bearerProblem(req.headers.authorization);
    if (!found) return next();
    next(new ApiError(401, 'unauthorized', `${found.problem} ${how}`, { 'WWW-Authenticate': bearerChallenge(found.malformed ? 'invalid_request' : undefined) }));
  };
}
