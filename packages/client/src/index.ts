// Typed fetch clients for both hosts, for Node and browsers alike (nothing here imports from Node). The types come
// from @arl/contract (generated from openapi/*.yaml), so a renamed field or a new bound shows up as a compile error,
// never as a runtime surprise. The enum value lists a UI needs are re-exported from the contract.
import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { FeedbackPaths, LeaderboardPaths, LeaderboardSchemas } from '@arl/contract';
import { randomRequestId } from './request-id.js';

export * from '@arl/contract/enums';
export type {
  FeedbackOperations, FeedbackPaths, FeedbackSchemas, LeaderboardOperations, LeaderboardPaths, LeaderboardSchemas,
} from '@arl/contract';
export { randomRequestId } from './request-id.js';

export type LeaderboardClient = Client<LeaderboardPaths>;
export type FeedbackClient = Client<FeedbackPaths>;
export type { Middleware } from 'openapi-fetch';

export interface ContractClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Middleware applied to every request, in order (see `requestIdMiddleware`). */
  middleware?: Middleware[];
}

function withMiddleware<C extends { use: (...m: Middleware[]) => void }>(client: C, middleware: Middleware[] = []): C {
  if (middleware.length > 0) client.use(...middleware);
  return client;
}

/** Client for the leaderboard host, e.g. `createLeaderboardClient('http://127.0.0.1:3000')`. */
export function createLeaderboardClient(baseUrl: string, options: ContractClientOptions = {}): LeaderboardClient {
  const { middleware, ...rest } = options;
  return withMiddleware(createClient<LeaderboardPaths>({ ...rest, baseUrl: stripTrailingSlash(baseUrl) }), middleware);
}

/** Client for the feedback host, e.g. `createFeedbackClient('http://127.0.0.1:3001')`. */
export function createFeedbackClient(feedbackUrl: string, options: ContractClientOptions = {}): FeedbackClient {
  const { middleware, ...rest } = options;
  return withMiddleware(createClient<FeedbackPaths>({ ...rest, baseUrl: stripTrailingSlash(feedbackUrl) }), middleware);
}

/**
 * Sends an X-Request-Id with every request (generated unless `next` gives one), so a caller's logs and the
 * service's logs share an id; the service echoes it in the response header and in error bodies. The default
 * generator works in every context, secure or not (see randomRequestId).
 */
export function requestIdMiddleware(next: () => string = randomRequestId): Middleware {
  return {
    onRequest({ request }) {
      if (!request.headers.has('x-request-id')) request.headers.set('x-request-id', next());
      return request;
    },
  };
}

/**
 * URLs of the live event streams (Server-Sent Events), for `new EventSource(url)`: events `step`, then `scan` /
 * `journey` with the final state, after which the server closes the stream (close the EventSource on that event).
 */
export function scanEventsUrl(baseUrl: string, scanId: string): string {
  return `${stripTrailingSlash(baseUrl)}/v1/leaderboard/scans/${encodeURIComponent(scanId)}/events`;
}
export function journeyEventsUrl(baseUrl: string, journeyId: string): string {
  return `${stripTrailingSlash(baseUrl)}/v1/leaderboard/journeys/${encodeURIComponent(journeyId)}/events`;
}

/** Watch and act (webhooks, compare, badges, check history): the schemas a caller handles, by name. */
export type WebhookEvent = LeaderboardSchemas['WebhookEvent'];
export type WebhookEventType = LeaderboardSchemas['WebhookEventType'];
export type WebhookSubscription = LeaderboardSchemas['WebhookSubscription'];
export type WebhookSubscriptionCreated = LeaderboardSchemas['WebhookSubscriptionCreated'];
export type WebhookDelivery = LeaderboardSchemas['WebhookDelivery'];
export type Comparison = LeaderboardSchemas['Comparison'];
export type CheckHistory = LeaderboardSchemas['CheckHistory'];
export type CheckChanges = LeaderboardSchemas['CheckChanges'];

/**
 * The headers that manage a webhook subscription (there are no accounts: the token createWebhook returned is the
 * credential), e.g. `client.GET('/v1/leaderboard/webhooks/{webhookId}', { params: { path: { webhookId } }, headers: webhookAuth(token) })`.
 */
export function webhookAuth(token: string): { Authorization: string } {
  return { Authorization: `Bearer ${token}` };
}

/** The URL of a company's score badge (SVG), for an `<img>` or a Markdown image. */
export function badgeUrl(baseUrl: string, domain: string, options: { community?: boolean } = {}): string {
  return `${stripTrailingSlash(baseUrl)}/v1/leaderboard/companies/${encodeURIComponent(domain)}/badge.svg${options.community ? '?community=include' : ''}`;
}

/** The web page comparing 2 to 4 companies side by side. */
export function comparePageUrl(baseUrl: string, domains: string[]): string {
  return `${stripTrailingSlash(baseUrl)}/compare?domains=${domains.map(encodeURIComponent).join(',')}`;
}

/** Open data (issue 31): the population statistics and the dataset's description, by name. */
export type PopulationStats = LeaderboardSchemas['PopulationStats'];
export type DatasetInfo = LeaderboardSchemas['DatasetInfo'];
export type CheckStats = LeaderboardSchemas['CheckStats'];
export type WeeklyPoint = LeaderboardSchemas['WeeklyPoint'];

/**
 * The URL of the open dataset (CC BY 4.0), streamed as CSV or JSON Lines: open it with fetch and read the body as a
 * stream (`api.GET('/v1/leaderboard/dataset.csv', { parseAs: 'stream' })` does the same through the typed client).
 */
export function datasetUrl(baseUrl: string, format: 'csv' | 'jsonl', options: { category?: string; community?: boolean } = {}): string {
  const params = new URLSearchParams();
  if (options.category) params.set('category', options.category);
  if (options.community) params.set('community', 'include');
  const search = params.toString();
  return `${stripTrailingSlash(baseUrl)}/v1/leaderboard/dataset.${format}${search ? `?${search}` : ''}`;
}

function stripTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}
