// Builds the feedback service of one process from its config: the report schema read from the contract at
// start-up, the invitation-token signer and the two rate limiters.
import { specPaths } from '@arl/contract/node';
import type { Db } from '@arl/db';
import type { Config } from '../config';
import { createRateLimiter } from '../http/rate-limit';
import { InviteTokens } from './invite-token';
import { loadResolvedSchema } from './report-schema';
import { FeedbackRepository } from './repository';
import { FeedbackService, type ReportHook } from './service';

/** A project takes at most this many times the per-client rate, from all clients together. */
export const PROJECT_RATE_FACTOR = 20;

export function createFeedbackService(config: Config, inviteSecret: string, db: Db, clock: () => Date, hook?: ReportHook<unknown>): FeedbackService {
  const perClient = config.feedback.rateLimit;
  return new FeedbackService({
    repository: new FeedbackRepository(db),
    tokens: new InviteTokens(inviteSecret),
    reportSchema: loadResolvedSchema(specPaths.feedback, 'FeedbackReport'),
    publicUrl: config.feedbackPublicUrl,
    clock,
    hook,
    clientLimiter: createRateLimiter(
      { points: perClient, durationSeconds: 60, keyPrefix: 'feedback-client', message: `At most ${perClient} reports per minute from one client; try again later.` },
      { db },
    ),
    projectLimiter: createRateLimiter(
      { points: perClient * PROJECT_RATE_FACTOR, durationSeconds: 60, keyPrefix: 'feedback-project', message: 'This project is receiving too many reports right now; try again later.' },
      { db },
    ),
  });
}
