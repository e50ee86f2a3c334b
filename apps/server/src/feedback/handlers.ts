// Operations 7 and 8 and the card's two companions (report schema, HTML page), mapped to the feedback service.
import type { FeedbackOperations } from '@arl/contract';
import type { Handlers } from '../http/operations';
import type { FeedbackService } from './service';

type FeedbackProjectOperations = Pick<FeedbackOperations, 'getFeedbackCard' | 'getFeedbackReportSchema' | 'getFeedbackPage' | 'sendFeedbackReport'>;

export function feedbackHandlers(feedback: FeedbackService): Handlers<FeedbackProjectOperations> {
  return {
    async getFeedbackCard({ path }) {
      return { status: 200, body: await feedback.card(path.slug) };
    },
    async getFeedbackReportSchema({ path }) {
      return { status: 200, body: await feedback.reportSchema(path.slug) };
    },
    async getFeedbackPage({ path }) {
      const page = await feedback.page(path.slug);
      return { status: 200, html: page.html, headers: page.headers };
    },
    async sendFeedbackReport({ path, body, req }) {
      // The client is the socket's peer address; behind a proxy that is the proxy unless Express's `trust proxy`
      // is set (see README), in which case req.ip is the forwarded client.
      const client = req.ip ?? req.socket.remoteAddress ?? 'unknown';
      const { status, receipt } = await feedback.submit(path.slug, body, client);
      return { status, body: receipt };
    },
  };
}
