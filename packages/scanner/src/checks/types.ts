import type { Artifacts } from '../gather/artifacts';
import type { CheckLabel, CheckStatus, CheckTier, Evidence, LayerId, TargetKind } from '../types';

export interface CheckOutcome {
  status: CheckStatus;
  evidence: Evidence;
  /** Overrides the definition's generic fix with one that names what was found. */
  fix?: string | null;
}

export interface CheckDefinition {
  id: string;
  name: string;
  layer: LayerId;
  tier: CheckTier;
  label: CheckLabel;
  bonus: boolean;
  points: number;
  appliesTo: readonly TargetKind[];
  description: string;
  fix: string;
  /** The standard and section it applies, or why the rule is our own (checks/sources.ts). */
  source: string;
  evaluate(artifacts: Artifacts): CheckOutcome;
}
