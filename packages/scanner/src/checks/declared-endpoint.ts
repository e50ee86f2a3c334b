// Verified, not declared (issue 39): a document that names an endpoint (a server card, a catalog, a UCP profile)
// promises that something answers there. When nothing does, whose fault it is decides the verdict:
// - the site's: the connection is refused, its TLS is broken, the address is one no agent can reach (a private or
//   loopback address in a public site's card), the URL is not http(s), or it redirects without end. The declaration
//   leads nowhere, and the checks built on it fail, naming the document and the endpoint;
// - ours: a timeout, our budget, our DNS, a challenge or rate limit in front of it, a network error. We could not
//   look: the checks that need the live server say couldnt_check, and the declaring document keeps the verdict it
//   earns on its own, said unverified (a check is never failed for what we could not see).
import type { GuardedFetchErrorCode } from '../fetch/errors';
import type { McpArtifact } from '../gather/artifacts';
import { isDeclaredSource } from '../gather/mcp-discovery';

const SITE_FAULTS: ReadonlySet<GuardedFetchErrorCode> = new Set<GuardedFetchErrorCode>(['refused', 'tls', 'blocked_address', 'bad_scheme', 'invalid_url', 'too_many_redirects']);

/** True when a fetch failed for a reason that is the declaring site's fault, not ours. */
export const isSiteFault = (code: string | null | undefined): boolean => typeof code === 'string' && (SITE_FAULTS as ReadonlySet<string>).has(code);

/**
 * Whether a session that did not complete is a declared MCP server that leads nowhere: declared by a document (not
 * the scanned URL, not a guessed path), no answer, and the site's fault.
 */
export const isDeadDeclaration = (mcp: McpArtifact): boolean =>
  !mcp.initialize.ok && !mcp.auth.required && mcp.initialize.fetchFailure && isDeclaredSource(mcp.source) && isSiteFault(mcp.initialize.fetchErrorCode);
