/**
 * Bump when a check is added, removed or changes meaning; ids never change. The release date, with ".2" and on for a
 * second release the same day (2026.11.27 had gone out with issue 29's first items when its items 4-6 changed checks).
 */
export const CATALOG_VERSION = '2026.11.28';
export const SCANNER_CONTACT_URL = 'https://github.com/agent-readiness-leaderboard/scanner#for-site-owners';
export const DEFAULT_USER_AGENT = `AgentReadinessScanner/${CATALOG_VERSION} (+${SCANNER_CONTACT_URL})`;
