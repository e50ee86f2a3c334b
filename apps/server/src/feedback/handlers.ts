import type { FeedbackOperations } from '@arl/contract';
import { notImplemented } from '../http/errors';
import type { Handlers } from '../http/operations';

type CardAndReportOperations = Pick<FeedbackOperations, 'getFeedbackCard' | 'sendFeedbackReport'>;

export function feedbackHandlers(): Handlers<CardAndReportOperations> {
  return {
    async getFeedbackCard() {
      throw notImplemented('Reading a feedback card');
    },
    async sendFeedbackReport() {
      throw notImplemented('Sending a feedback report');
    },
  };
}
