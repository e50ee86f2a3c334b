// The dispute kind of a feedback report, in the report's existing fields (FeedbackReport is not changed): a report
// to the service's own project whose `metadata` carries `kind: "dispute"`, `scanId` and `checkId`. Reports built
// here also fill `outcome`, `category`, `goal` and `reference`, so a project owner reading reports sees what is
// disputed without knowing the convention.
import type { FeedbackSchemas } from '@arl/contract';
import { badRequest } from '../http/errors';

type Report = FeedbackSchemas['FeedbackReport'];
export type DisputeRequest = FeedbackSchemas['DisputeRequest'];

/** The project whose reports may be disputes: the service's own (seeded) feedback project. */
export const DISPUTE_PROJECT = 'leaderboard';
export const DISPUTE_KIND = 'dispute';

export interface DisputeClaim {
  scanId: string;
  checkId: string;
}

/** What a vetted claim names: the check's verdict in an ended scan, and the URL to rescan. */
export interface DisputeTarget extends DisputeClaim {
  checkName: string;
  status: FeedbackSchemas['Dispute']['disputedStatus'];
  domain: string;
  url: string;
}

const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CHECK_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The claim of a report of the dispute kind; null for any other report. A dispute missing its names is a 400. */
export function disputeClaimOf(report: Report): DisputeClaim | null {
  const meta = report.metadata;
  if (!meta || meta.kind !== DISPUTE_KIND) return null;
  const { scanId, checkId } = meta;
  if (typeof scanId !== 'string' || !LOWER_UUID.test(scanId) || typeof checkId !== 'string' || checkId.length > 100 || !CHECK_ID.test(checkId)) {
    throw badRequest('A report of the kind dispute names the scan and the check: metadata.scanId (a lowercase scan id) and metadata.checkId (a check id such as llms-txt).');
  }
  return { scanId, checkId };
}

/** The feedback report a DisputeRequest files. */
export function disputeReport(request: DisputeRequest, target: DisputeTarget): Report {
  return {
    observation: request.observation,
    outcome: 'friction',
    category: 'confusing_output',
    goal: `Dispute the verdict "${target.status}" of check ${target.checkId} for ${target.domain}`.slice(0, 500),
    reference: `check:${target.checkId} scan:${target.scanId}`,
    surface: request.surface ?? 'api',
    ...(request.agent ? { agent: request.agent } : {}),
    metadata: { kind: DISPUTE_KIND, scanId: target.scanId, checkId: target.checkId, domain: target.domain, status: target.status },
  };
}
