// Wires webhooks into one process: the `webhook` job kind on the shared queue, the fan-out written in the
// transaction that ends a scan (registered on the scan's end, scans/scan-ended.ts), and the subscription service. Deliveries use the scans' fetch policy (the same SSRF rules).
import type { Db } from '@arl/db';
import type { FetchPolicy } from '@arl/scanner';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { JobQueue } from '../jobs/queue';
import type { ScanEndedEvents } from '../scans/scan-ended';
import { SCANNABLE_PORTS, normalizeTarget } from '../scans/target';
import { defineWebhookJob } from './delivery-job';
import { WEBHOOK_JOB, queueWebhookEvents } from './events';
import { WebhookService } from './service';

export function webhookFetchPolicy(config: Config, overrides: Partial<FetchPolicy> = {}): Partial<FetchPolicy> {
  return { ...overrides, allowPrivateNetworks: config.scan.allowPrivateNetworks, publicPorts: SCANNABLE_PORTS };
}

export function createWebhooks(deps: {
  config: Config; db: Db; queue: JobQueue; scanEnded: ScanEndedEvents; clock: () => Date; logger: Logger; fetchPolicy?: Partial<FetchPolicy>;
}): WebhookService {
  const { config, db, clock, queue } = deps;
  // The fan-out: the events and their jobs commit with the scan's end or not at all (webhooks/events.ts).
  deps.scanEnded.inTransaction(async (tx, ended) => ((await queueWebhookEvents(tx, queue, ended, config.publicUrl)) > 0 ? [WEBHOOK_JOB] : []));
  const policy = webhookFetchPolicy(config, deps.fetchPolicy);
  defineWebhookJob(deps.queue, {
    db, clock, policy,
    logger: deps.logger.child({ module: 'webhooks' }),
    retryWindowMs: config.webhooks.retryWindowMs,
    retryBaseMs: config.webhooks.retryBaseMs,
    timeoutMs: config.webhooks.timeoutMs,
  });
  return new WebhookService({
    db, clock, policy,
    normalize: (url) => normalizeTarget(url, { anyPort: config.scan.allowPrivateNetworks }),
  });
}
