// The dispute operations of both hosts. Filing always goes through the feedback service (project rules, rate
// limits, repeat detection), which hands reports of the dispute kind to the dispute service (its ReportHook).
import type { FeedbackOperations, LeaderboardOperations, LeaderboardSchemas } from '@arl/contract';
import type { Request } from 'express';
import type { FeedbackService } from '../feedback/service';
import { notFound } from '../http/errors';
import type { Handlers } from '../http/operations';
import { clientAddress } from '../http/rate-limit';
import { DISPUTE_PROJECT, disputeReport, type DisputeRequest } from './report-kind';
import type { DisputeService } from './service';

type FeedbackDisputeOperations = Pick<FeedbackOperations, 'disputeVerdict' | 'getReportDispute'>;
type LeaderboardDisputeOperations = Pick<LeaderboardOperations, 'listCompanyDisputes' | 'postDisputeForm'>;

/** Files a dispute as a feedback report of the service's own project; returns the receipt. */
async function file(disputes: DisputeService, feedback: FeedbackService, request: DisputeRequest, req: Request, domain?: string) {
  const target = await disputes.vet({ scanId: request.scanId, checkId: request.checkId });
  if (domain !== undefined && target.domain !== domain.toLowerCase()) {
    throw notFound(`Scan ${request.scanId} is not a scan of ${domain}.`);
  }
  return { target, ...(await feedback.submit(DISPUTE_PROJECT, disputeReport(request, target), clientAddress(req))) };
}

export function feedbackDisputeHandlers(disputes: DisputeService, feedback: FeedbackService): Handlers<FeedbackDisputeOperations> {
  return {
    async disputeVerdict({ path, body, req }) {
      if (path.slug !== DISPUTE_PROJECT) {
        throw notFound(`The project "${path.slug}" takes no disputes: disputes of the leaderboard's verdicts go to "${DISPUTE_PROJECT}".`);
      }
      const { status, receipt } = await file(disputes, feedback, body, req);
      return { status, body: receipt };
    },
    async getReportDispute({ path }) {
      return { status: 200, body: await disputes.readOfReport(path.slug, path.reportId.toLowerCase()) };
    },
  };
}

export function leaderboardDisputeHandlers(disputes: DisputeService, feedback: FeedbackService): Handlers<LeaderboardDisputeOperations> {
  return {
    async listCompanyDisputes({ path }) {
      const domain = path.domain.toLowerCase();
      return { status: 200, body: { domain, items: await disputes.list(domain) } };
    },
    async postDisputeForm({ path, body, req }) {
      // The handler types read JSON bodies only; the validator has checked this urlencoded one against DisputeForm.
      const form = body as unknown as LeaderboardSchemas['DisputeForm'];
      const { target, receipt } = await file(disputes, feedback, { ...form, surface: 'web' }, req, path.domain);
      // Post, redirect, get: a reload of the company page never files the dispute again.
      const page = new URL(await disputes.companyUrl(target.domain, receipt.id));
      return { status: 303, headers: { Location: `${page.pathname}${page.search}${page.hash}` } };
    },
  };
}
