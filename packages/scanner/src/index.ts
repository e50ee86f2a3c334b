export type { CheckLabel, CheckResult, CheckStatus, CheckTier, Evidence, EvidenceExchange, Grade, LayerId, LayerResult, ScanEnding, ScanLogger, ScanResult, TargetKind } from './types';
export type { FetchPolicy } from './fetch/policy';
export { DEFAULT_FETCH_POLICY } from './fetch/policy';
export { createGuardedFetch } from './fetch/guarded-fetch';
export type { GuardedFetch, ReusingGuardedFetch } from './fetch/guarded-fetch';
export { GuardedFetchError, isGuardedFetchError } from './fetch/errors';
export type { GuardedFetchErrorCode } from './fetch/errors';
export { checkScannableUrl } from './fetch/check-scannable-url';
export type { ScannableUrlResult } from './fetch/check-scannable-url';
export { isPublicAddress } from './fetch/address-policy';
export { scan, SCAN_PHASES } from './scan/scan';
export { causeForFetchError } from './scan/causes';
export type { ScanOptions, ScanPhase } from './scan/scan';
export { CHECK_CATALOG } from './checks/catalog';
export { CHECK_SOURCES } from './checks/sources';
// Reports show the stored exchange in words after the detail (the contract's CheckEvidence has no field for it).
export { exchangeInWords, EXCHANGE_WORDS_MAX } from './checks/exchange';
export type { CheckDefinition, CheckOutcome } from './checks/types';
export type { Artifacts, FetchedDoc, McpArtifact, McpTool } from './gather/artifacts';
export { LAYER_WEIGHTS, TIER_POINTS, GRADE_BANDS, BONUS_CHECK_POINTS, REQUIRED_FAILURE_CAP, REFUSAL_SCORE_CAP, BASE_SCORE_CEILING, BONUS_BASE_THRESHOLD, CAPABILITIES, CAPABILITY_POINTS } from './scoring/weights';
// The methodology endpoint publishes these as data: they are read, never copied.
export { LAYER_ORDER, STATUS_CREDIT } from './scoring/weights';
export { gradeFor, scoreChecks } from './scoring/score';
export { catalogMarkdown } from './cli/catalog-markdown';
export { CATALOG_CHANGELOG } from './checks/changelog';
export type { CatalogChange, CatalogRelease } from './checks/changelog';
export { CATALOG_VERSION, DEFAULT_USER_AGENT, SCANNER_CONTACT_URL } from './version';
export { createRequestSigner, ed25519PrivateJwk, generateSigningKey, SIGNATURE_DIRECTORY_MEDIA_TYPE, SIGNATURE_DIRECTORY_PATH } from './fetch/request-signer';
export type { RequestSigner } from './fetch/request-signer';
