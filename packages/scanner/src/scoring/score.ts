import type { CheckResult, Grade, LayerId, LayerResult } from '../types';
import {
  BASE_SCORE_CEILING,
  BONUS_BASE_THRESHOLD,
  CAPABILITIES,
  CAPABILITY_POINTS,
  GRADE_BANDS,
  LAYER_ORDER,
  LAYER_WEIGHTS,
  REQUIRED_FAILURE_CAP,
} from './weights';

export interface ScoreBreakdown {
  layers: LayerResult[];
  /** Weighted layer average before ceiling, bonus, cap and capabilities; null when nothing was scorable. */
  base: number | null;
  bonusEarned: number;
  cappedByRequired: boolean;
  /** Ids of the working capabilities (see CAPABILITIES) that added points. */
  capabilities: string[];
  score: number | null;
  grade: Grade | null;
}

const SCORABLE = new Set(['passed', 'warning', 'failed']);

export function gradeFor(score: number): Grade {
  for (const band of GRADE_BANDS) if (score >= band.min) return band.grade;
  return 'F';
}

/**
 * Layer = earned / possible over its scorable, non-bonus checks, where an emerging check counts only with what it
 * earned (a missing draft standard is an opportunity, never a penalty); base = weighted mean of non-null layers;
 * then ceiling, bonus (on a strong base only), the required-failure cap and the capability points.
 * See README "Scoring".
 */
export function scoreChecks(checks: readonly CheckResult[]): ScoreBreakdown {
  const exact = new Map<LayerId, number | null>();
  const layers: LayerResult[] = LAYER_ORDER.map((id) => {
    const scored = checks.filter((c) => c.layer === id && !c.bonus && SCORABLE.has(c.status));
    const possible = scored.reduce((sum, c) => sum + (c.tier === 'emerging' ? c.earned : c.points), 0);
    const earned = scored.reduce((sum, c) => sum + c.earned, 0);
    const ratio = possible > 0 ? (100 * earned) / possible : null;
    exact.set(id, ratio);
    return { id, weight: LAYER_WEIGHTS[id], score: ratio === null ? null : Math.round(ratio) };
  });
  let weightSum = 0;
  let weighted = 0;
  for (const id of LAYER_ORDER) {
    const ratio = exact.get(id);
    if (ratio === null || ratio === undefined) continue;
    weightSum += LAYER_WEIGHTS[id];
    weighted += LAYER_WEIGHTS[id] * ratio;
  }
  const bonusEarned = checks.filter((c) => c.bonus && SCORABLE.has(c.status)).reduce((sum, c) => sum + c.earned, 0);
  const cappedByRequired = checks.some((c) => c.tier === 'required' && !c.bonus && c.status === 'failed');
  const capabilities = CAPABILITIES.filter((cap) => checks.some((c) => c.id === cap.provenBy && c.status === 'passed')).map((cap) => cap.id);
  if (weightSum === 0) return { layers, base: null, bonusEarned, cappedByRequired, capabilities, score: null, grade: null };
  const base = weighted / weightSum;
  let total = Math.min(base, BASE_SCORE_CEILING);
  if (base >= BONUS_BASE_THRESHOLD) total = Math.min(100, total + bonusEarned);
  if (cappedByRequired) total = Math.min(total, REQUIRED_FAILURE_CAP);
  total += CAPABILITY_POINTS * capabilities.length;
  const score = Math.max(0, Math.min(100, Math.round(total)));
  return { layers, base, bonusEarned, cappedByRequired, capabilities, score, grade: gradeFor(score) };
}
