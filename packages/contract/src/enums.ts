// The value lists a UI needs (filters, legends, badges, forms), taken from the constants openapi-typescript generates
// from the YAML (`--enum-values`): a value added to the contract appears here with the next build, and a renamed
// schema breaks this file at compile time instead of a page at run time. Importable in a browser.
import {
  checkStatusValues, checkTierValues, companySourceValues, gradeValues, journeyDriverValues, journeyOutcomeValues,
  journeyStateValues, journeyTaskValues, layerIdValues, leaderboardSortValues, scanEndingValues, scanStateValues,
  sortOrderValues, targetKindValues,
} from './generated/leaderboard.js';
import { disputeStateValues, feedbackReportCategoryValues, feedbackReportOutcomeValues, feedbackReportSurfaceValues } from './generated/feedback.js';

/** Best first: A+, A, B, C, D, F. */
export const GRADES = gradeValues;
/** In report order: discovery, access, usability, payments. */
export const LAYERS = layerIdValues;
/** `sort` of the leaderboard list. */
export const LEADERBOARD_SORTS = leaderboardSortValues;
export const SORT_ORDERS = sortOrderValues;
export const COMPANY_SOURCES = companySourceValues;
export const JOURNEY_TASKS = journeyTaskValues;
export const JOURNEY_STATES = journeyStateValues;
export const JOURNEY_OUTCOMES = journeyOutcomeValues;
export const JOURNEY_DRIVERS = journeyDriverValues;
export const SCAN_STATES = scanStateValues;
export const SCAN_ENDINGS = scanEndingValues;
/** Report and methodology enums. */
export const CHECK_TIERS = checkTierValues;
export const CHECK_STATUSES = checkStatusValues;
export const TARGET_KINDS = targetKindValues;
export const FEEDBACK_OUTCOMES = feedbackReportOutcomeValues;
export const FEEDBACK_CATEGORIES = feedbackReportCategoryValues;
export const FEEDBACK_SURFACES = feedbackReportSurfaceValues;
/** Where a disputed verdict stands: rescanning, then held, changed or unresolved. */
export const DISPUTE_STATES = disputeStateValues;
