// The fixed vocabulary of the statistics and the dataset: the methodology version every figure and row is published
// under, the statuses and grades in their published order, and the checks of the running catalog (the columns).
import type { LeaderboardSchemas } from '@arl/contract';
import { CATALOG_VERSION, CHECK_CATALOG, LAYER_ORDER } from '@arl/scanner';

export type PopulationStats = LeaderboardSchemas['PopulationStats'];
export type DatasetInfo = LeaderboardSchemas['DatasetInfo'];
export type Grade = LeaderboardSchemas['Grade'];
type CheckStatus = LeaderboardSchemas['CheckStatus'];

/**
 * The methodology the figures and rows follow: the published one (getMethodology, /methodology) of this catalog.
 * A row also carries the catalog its own scan ran (`catalogVersion`), which may be older.
 */
export const METHODOLOGY_VERSION = CATALOG_VERSION;

/** Statuses in the order of the contract's StatusCounts; a status's code is its position. */
export const STATUSES: readonly CheckStatus[] = ['passed', 'warning', 'failed', 'not_applicable', 'couldnt_check'];
export const STATUS_KEYS = ['passed', 'warning', 'failed', 'notApplicable', 'couldntCheck'] as const;
/** The code of "the scan has no result for this check" (a scan of an older catalog). */
export const NO_RESULT = 255;
const STATUS_CODE = new Map<string, number>(STATUSES.map((s, i) => [s, i]));
export const statusCode = (status: string): number => STATUS_CODE.get(status) ?? NO_RESULT;

/** Best first, as GradeDistribution lists them. */
export const GRADES: readonly Grade[] = ['A+', 'A', 'B', 'C', 'D', 'F'];
const GRADE_CODE = new Map<string, number>(GRADES.map((g, i) => [g, i]));
export const gradeCode = (grade: string): number => GRADE_CODE.get(grade) ?? GRADES.length - 1;

export const LAYERS = LAYER_ORDER;
/** A layer score of null (no check of the layer could be scored). */
export const NO_SCORE = 255;

/** The running catalog's checks, in its order: the statistics' checks and the dataset's check columns. */
export const CHECKS: ReadonlyArray<{ id: string; name: string; layer: LeaderboardSchemas['LayerId'] }> = CHECK_CATALOG.map((c) => ({
  id: c.id,
  name: c.name,
  layer: c.layer,
}));
const CHECK_INDEX = new Map(CHECKS.map((c, i) => [c.id, i]));
/** The check's position in CHECKS, or -1 for an id the running catalog no longer has. */
export const checkIndex = (id: string): number => CHECK_INDEX.get(id) ?? -1;

/** Share rounded to 4 decimals; 0 when there is nothing to divide by. */
export const share = (count: number, of: number): number => (of > 0 ? Math.round((count / of) * 10_000) / 10_000 : 0);

/** Weekly points at most (the current week included). */
export const WEEKS = 26;

export const LICENSE = { id: 'CC-BY-4.0' as const, url: 'https://creativecommons.org/licenses/by/4.0/' };

/**
 * Freezes a value and everything in it. The answers' elements are frozen so that the direct-read path validates and
 * serializes each once (http/frozen-memo.ts) and every later answer that shares it costs a lookup.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
