// Wires journeys into one process: the `journey` job kind on the shared queue, the driver choice, and the service.
import type { Db } from '@arl/db';
import { createHeuristicDriver, createLlmDriver, type JourneyBudgets, type JourneyDriver, type LlmEndpointError } from '@arl/journeys';
import type { FetchPolicy } from '@arl/scanner';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { JobQueue } from '../jobs/queue';
import type { Metrics } from '../metrics/metrics';
import { SCANNABLE_PORTS } from '../scans/target';
import { defineJourneyJob } from './journey-job';
import { JourneyService } from './service';

/** Journeys run beside scans; each holds one agent session, so a small fixed parallelism per worker. */
const JOURNEY_CONCURRENCY = 2;

export function createJourneys(deps: {
  config: Config;
  db: Db;
  queue: JobQueue;
  clock: () => Date;
  logger: Logger;
  metrics: Metrics;
  /** Overrides of the fetch rules (tests and the demo pass the sandbox's DNS `lookup`); never from env. */
  fetchPolicy?: Partial<FetchPolicy>;
  budgets?: Partial<JourneyBudgets>;
}): JourneyService {
  const { config, db, queue, clock, logger } = deps;
  const { baseUrl, model, apiKey } = config.llm;
  const log = logger.child({ module: 'journeys' });
  // The provider's own words stay in our log (key removed); the journey's public cause is our sentence.
  const onEndpointError = (err: LlmEndpointError) => log.warn({ endpoint: err.detail, cause: err.message }, 'the model endpoint failed');
  const driver = (): JourneyDriver =>
    baseUrl && model && apiKey ? createLlmDriver({ baseUrl, model, apiKey, onEndpointError }) : createHeuristicDriver();
  defineJourneyJob({
    db, queue, clock, driver,
    metrics: deps.metrics,
    logger: log,
    fetchPolicy: { ...deps.fetchPolicy, allowPrivateNetworks: config.scan.allowPrivateNetworks, publicPorts: SCANNABLE_PORTS },
    budgets: deps.budgets,
    concurrency: JOURNEY_CONCURRENCY,
  });
  return new JourneyService({ db, queue, clock });
}
