import type { CheckStatus, CheckTier, Grade, LayerId } from '../types';

/**
 * Every number of the published formula lives here and nowhere else.
 * See README "Scoring" for the reasoning; changing one of these is a catalog version bump.
 */
export const LAYER_WEIGHTS: Record<LayerId, number> = { discovery: 25, access: 30, usability: 30, payments: 15 };
export const LAYER_ORDER: readonly LayerId[] = ['discovery', 'access', 'usability', 'payments'];

export const TIER_POINTS: Record<CheckTier, number> = { required: 10, recommended: 7, emerging: 4 };
/** Bonus checks only ever add: each is worth this many points on the 0-100 scale. */
export const BONUS_CHECK_POINTS = 2;

export const STATUS_CREDIT: Record<Extract<CheckStatus, 'passed' | 'warning' | 'failed'>, number> = { passed: 1, warning: 0.5, failed: 0 };

/** Bonus points count only on a strong base (Observatory-style), and only they lift a score above this ceiling. */
export const BONUS_BASE_THRESHOLD = 90;
export const BASE_SCORE_CEILING = 96;
/** A failed required check holds the checks' part of the score here, so at most a B (capability points included). */
export const REQUIRED_FAILURE_CAP = 79;
/**
 * A site that refuses AI agents in its own words (robots.txt) and in its answers (every AI agent's request turned
 * away, signed or not) scores at most this: nothing of it is open to an agent, so it ranks last rather than leaving
 * the ranking (checks/access/site-refusal.ts).
 */
export const REFUSAL_SCORE_CAP = 0;

/**
 * A working capability (a check that proves it passed) adds these points on top of the checks' part, never past 100,
 * so a site that offers everything another offers plus a working API, MCP server or readable pricing ranks strictly
 * higher. Three capabilities at most add 6, so a required failure still ends at a B.
 */
export const CAPABILITY_POINTS = 2;
export const CAPABILITIES: ReadonlyArray<{ id: string; name: string; provenBy: string }> = [
  { id: 'api', name: 'an API described by OpenAPI', provenBy: 'openapi' },
  { id: 'mcp-server', name: 'a working MCP server with tools', provenBy: 'mcp-tools-list' },
  { id: 'readable-pricing', name: 'machine-readable pricing', provenBy: 'pricing-readable' },
];

export const GRADE_BANDS: ReadonlyArray<{ grade: Grade; min: number }> = [
  { grade: 'A+', min: 97 },
  { grade: 'A', min: 90 },
  { grade: 'B', min: 75 },
  { grade: 'C', min: 60 },
  { grade: 'D', min: 40 },
  { grade: 'F', min: 0 },
];

export function pointsFor(tier: CheckTier, bonus: boolean): number {
  return bonus ? BONUS_CHECK_POINTS : TIER_POINTS[tier];
}
