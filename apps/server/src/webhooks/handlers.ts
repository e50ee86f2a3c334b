// The webhook operations of openapi/leaderboard.yaml (tag watch).
import type { LeaderboardOperations } from '@arl/contract';
import type { Handlers } from '../http/operations';
import { createRateLimiter } from '../http/rate-limit';
import type { Runtime } from '../runtime';
import { bearerToken, type WebhookService } from './service';

type WebhookOperations = Pick<LeaderboardOperations, 'createWebhook' | 'getWebhook' | 'deleteWebhook' | 'resumeWebhook' | 'listWebhookDeliveries'>;

export function webhookHandlers(runtime: Runtime, webhooks: WebhookService): Handlers<WebhookOperations> {
  const limiter = createRateLimiter(
    { points: runtime.config.webhooks.rateLimit, durationSeconds: 60, keyPrefix: 'webhook-client', message: 'Too many subscriptions from this client; try again in a minute.' },
    runtime,
  );
  return {
    async createWebhook({ req, body }) {
      await limiter.consume(req.ip ?? 'unknown');
      const created = await webhooks.create(body);
      return { status: 201, body: created, headers: { Location: `/v1/leaderboard/webhooks/${created.subscription.id}` } };
    },
    async getWebhook({ req, path }) {
      return { status: 200, body: await webhooks.authorized(path.webhookId, bearerToken(req.headers.authorization)) };
    },
    async deleteWebhook({ req, path }) {
      await webhooks.delete(path.webhookId, bearerToken(req.headers.authorization));
      return { status: 204 };
    },
    async resumeWebhook({ req, path }) {
      return { status: 200, body: await webhooks.resume(path.webhookId, bearerToken(req.headers.authorization)) };
    },
    async listWebhookDeliveries({ req, path, query }) {
      return { status: 200, body: await webhooks.deliveries(path.webhookId, bearerToken(req.headers.authorization), { limit: query.limit ?? 20, cursor: query.cursor }) };
    },
  };
}
