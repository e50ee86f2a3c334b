// Wires webhooks into one process: the `webhook` job kind on the shared queue, the fan-out run when a scan ends,
// and the subscription service. Deliveries use the scans' fetch policy (the same SSRF rules).
import type { Db } from '@arl/db';
import type { FetchPolicy } from '@arl/scanner';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { JobQueue, Tx } from '../jobs/queue';
import type { ScanEnding } from '../scans/results';
import { SCANNABLE_PORTS, normalizeTarget } from '../scans/target';
import { defineWebhookJob } from './delivery-job';
import { WEBHOOK_JOB, queueWebhookEvents } from './events';
import { WebhookService } from './service';

export function webhookFetchPolicy(config: Config, overrides: Partial<FetchPolicy> = {}): Partial<FetchPolicy> {
  return { ...overrides, allowPrivateNetworks: config.scan.allowPrivateNetworks, publicPorts: SCANNABLE_PORTS };
}

/** The hook the scan pipeline runs in the transaction that ends a scan. */
export function webhookFanOut(config: Config) {
  return (queue: JobQueue) => async (tx: Tx, ended: ScanEnding): Promise<string[]> =>
    (await queueWebhookEvents(tx, queue, ended, config.publicUrl)) > 0 ? [WEBHOOK_JOB] : [];
}

export function createWebhooks(deps: { config: Config; db: Db; queue: JobQueue; clock: () => Date; logger: Logger; fetchPolicy?: Partial<FetchPolicy> }): WebhookService {
  const { config, db, clock } = deps;
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
