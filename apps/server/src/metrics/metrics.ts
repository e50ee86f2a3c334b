// The process's Prometheus metrics (prom-client), one registry per Runtime so tests can hold several.
//
// Counted where things happen: HTTP requests (http-metrics.ts), scan and journey endings (their jobs). Read at
// scrape time from the database: queue depth by job kind and state, the mail outbox backlog, the PostgreSQL pool.
// Label values are bounded sets (operationIds, statuses, endings, job kinds), never ids or URLs.
import type { Db } from '@arl/db';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'host' | 'operation' | 'status'>;
  httpDuration: Histogram<'host' | 'operation' | 'status'>;
  scanEndings: Counter<'ending'>;
  scanDuration: Histogram<'ending'>;
  journeyEndings: Counter<'outcome'>;
  journeyDuration: Histogram<'outcome'>;
}

const SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LONG_SECONDS = [0.5, 1, 2, 5, 10, 20, 30, 45, 60, 90, 120];

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'arl_' });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: 'arl_http_requests_total',
      help: 'HTTP requests answered, by host, operationId (or "unmatched") and status.',
      labelNames: ['host', 'operation', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'arl_http_request_duration_seconds',
      help: 'Time from the request to the end of its response, by host, operationId and status.',
      labelNames: ['host', 'operation', 'status'],
      buckets: SECONDS,
      registers,
    }),
    scanEndings: new Counter({ name: 'arl_scans_ended_total', help: 'Scans ended by this process, by ending.', labelNames: ['ending'], registers }),
    scanDuration: new Histogram({
      name: 'arl_scan_duration_seconds',
      help: "Scanner run time of the scans this process ended, by ending.",
      labelNames: ['ending'],
      buckets: LONG_SECONDS,
      registers,
    }),
    journeyEndings: new Counter({ name: 'arl_journeys_ended_total', help: 'Journeys ended by this process, by outcome.', labelNames: ['outcome'], registers }),
    journeyDuration: new Histogram({
      name: 'arl_journey_duration_seconds',
      help: 'Run time of the journeys this process ended, by outcome.',
      labelNames: ['outcome'],
      buckets: LONG_SECONDS,
      registers,
    }),
  };
}

/**
 * Gauges read from the database when Prometheus scrapes: shared state, so every process reports the same queue and
 * outbox (aggregate with max(), not sum()). A database that does not answer sets arl_database_up to 0.
 */
export function observeDatabase(metrics: Metrics, db: Db): void {
  const registers = [metrics.registry];
  const up = new Gauge({ name: 'arl_database_up', help: '1 when the last scrape could read the database, else 0.', registers });
  const safely = async (gauge: Gauge<string>, read: () => Promise<void>) => {
    try {
      gauge.reset();
      await read();
      up.set(1);
    } catch {
      up.set(0);
    }
  };
  new Gauge({
    name: 'arl_jobs',
    help: 'Jobs in the queue by kind and state (queued includes delayed retries; completed jobs are history and not counted).',
    labelNames: ['kind', 'state'],
    registers,
    async collect() {
      await safely(this, async () => {
        const { rows } = await db.executeSql(
          `SELECT kind, state, count(*)::int AS n FROM jobs WHERE state <> 'completed' GROUP BY kind, state`,
        );
        for (const row of rows as Array<{ kind: string; state: string; n: number }>) this.set({ kind: row.kind, state: row.state }, Number(row.n));
      });
    },
  });
  new Gauge({
    name: 'arl_mail_outbox',
    help: 'End-of-scan mails not sent yet, by status (pending: waiting or retrying; failed: given up).',
    labelNames: ['status'],
    registers,
    async collect() {
      await safely(this, async () => {
        this.set({ status: 'pending' }, 0);
        const { rows } = await db.executeSql(`SELECT status, count(*)::int AS n FROM mail_outbox WHERE status <> 'sent' GROUP BY status`);
        for (const row of rows as Array<{ status: string; n: number }>) this.set({ status: row.status }, Number(row.n));
      });
    },
  });
  new Gauge({
    name: 'arl_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting = queries queued for a connection); absent on PGlite.',
    labelNames: ['state'],
    registers,
    collect() {
      const stats = db.poolStats();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
}
