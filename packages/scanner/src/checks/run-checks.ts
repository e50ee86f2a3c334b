import type { Artifacts } from '../gather/artifacts';
import { STATUS_CREDIT } from '../scoring/weights';
import type { CheckResult, ScanLogger, TargetKind } from '../types';
import type { CheckDefinition, CheckOutcome } from './types';

const KIND_NAMES: Record<TargetKind, string> = { website: 'websites', mcp_server: 'MCP servers', mcp_app: 'MCP Apps' };

/** A check that throws becomes couldnt_check; the run carries on. */
export function runChecks(catalog: readonly CheckDefinition[], artifacts: Artifacts, logger?: ScanLogger): CheckResult[] {
  return catalog.map((check) => {
    let result: CheckOutcome;
    if (!check.appliesTo.includes(artifacts.kind)) {
      result = { status: 'not_applicable', evidence: { detail: `Applies to ${check.appliesTo.map((k) => KIND_NAMES[k]).join(' and ')} only` } };
    } else {
      try {
        result = check.evaluate(artifacts);
      } catch (error) {
        logger?.warn({ check: check.id, error }, 'check threw');
        result = { status: 'couldnt_check', evidence: { detail: `The check itself failed: ${error instanceof Error ? error.message : String(error)}` } };
      }
    }
    return toResult(check, result);
  });
}

export function toResult(check: CheckDefinition, result: CheckOutcome): CheckResult {
  const credit = result.status === 'passed' || result.status === 'warning' || result.status === 'failed' ? STATUS_CREDIT[result.status] : 0;
  const needsFix = result.status === 'failed' || result.status === 'warning';
  return {
    id: check.id,
    name: check.name,
    layer: check.layer,
    tier: check.tier,
    label: check.label,
    bonus: check.bonus,
    status: result.status,
    earned: check.points * credit,
    points: check.points,
    evidence: result.evidence,
    fix: needsFix ? (result.fix ?? check.fix) : null,
  };
}
