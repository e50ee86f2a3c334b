/** Bump when a check is added, removed or changes meaning; ids never change. */
export const CATALOG_VERSION = '2026.11.27';
export const SCANNER_CONTACT_URL = 'https://github.com/agent-readiness-leaderboard/scanner#for-site-owners';
export const DEFAULT_USER_AGENT = `AgentReadinessScanner/${CATALOG_VERSION} (+${SCANNER_CONTACT_URL})`;
