// The published formula as data, read from the scanner's catalog and weights: this module holds no number of its
// own, so the endpoint cannot drift from what scans compute.
import type { LeaderboardSchemas } from '@arl/contract';
import {
  BASE_SCORE_CEILING,
  BONUS_BASE_THRESHOLD,
  BONUS_CHECK_POINTS,
  CAPABILITIES,
  CAPABILITY_POINTS,
  CATALOG_VERSION,
  CHECK_CATALOG,
  GRADE_BANDS,
  LAYER_ORDER,
  LAYER_WEIGHTS,
  REQUIRED_FAILURE_CAP,
  STATUS_CREDIT,
  TIER_POINTS,
} from '@arl/scanner';

export type Methodology = LeaderboardSchemas['Methodology'];

export function buildMethodology(): Methodology {
  return {
    catalogVersion: CATALOG_VERSION,
    checks: CHECK_CATALOG.map((c) => ({
      id: c.id,
      name: c.name,
      layer: c.layer,
      tier: c.tier,
      label: c.label,
      bonus: c.bonus,
      points: c.points,
      appliesTo: [...c.appliesTo],
      // The contract's MethodologyCheck has no field for the citation, so it ends the description, which the web
      // methodology page and its markdown show: every check says what standard it applies, or why the rule is ours.
      description: withSource(c.description, c.source),
      fix: c.fix,
    })),
    layers: LAYER_ORDER.map((id) => ({ id, weight: LAYER_WEIGHTS[id] })),
    tierPoints: { ...TIER_POINTS },
    statusCredit: { ...STATUS_CREDIT },
    bonus: { pointsPerCheck: BONUS_CHECK_POINTS, minimumBase: BONUS_BASE_THRESHOLD },
    caps: { baseCeiling: BASE_SCORE_CEILING, requiredFailure: REQUIRED_FAILURE_CAP },
    capabilities: { pointsPerCapability: CAPABILITY_POINTS, items: CAPABILITIES.map((c) => ({ id: c.id, name: c.name, provenBy: c.provenBy })) },
    gradeBands: GRADE_BANDS.map((b) => ({ grade: b.grade, min: b.min })),
  };
}

/** "<what it looks for> Source: <standard and section, or why the rule is our own>." */
export function withSource(description: string, source: string): string {
  return `${description.trim()} Source: ${source.replace(/\.$/, '')}.`;
}
