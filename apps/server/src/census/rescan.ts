// `npm run companies -- rescan`: a scan of each selected company's website through the scan service's own start
// (ScanService.start: the atomic start-or-join of the API, and the queue's room, SCAN_QUEUE_LIMIT), so a company
// being scanned is joined, not scanned twice, and the queue holds no more than it would for the API. A full queue
// stops the run (what was queued stays queued), or with `wait` is waited out, a few seconds at a time.
import type { ScanService } from '../scans/service';
import { ApiError } from '../http/errors';
import type { Db } from '@arl/db';
import { companyPages, type RosterCompany, type Selection } from './roster';

export interface RescanOptions {
  /** Wait for room in a full queue instead of stopping. */
  wait: boolean;
  /** How long to wait between looks at a full queue. */
  pollMs?: number;
  signal?: AbortSignal;
}

export interface RescanHooks {
  queued(company: RosterCompany, scanId: string, started: boolean): void;
  skipped(company: RosterCompany, reason: string): void;
  /** The queue is full and the run waits. */
  full?(): void;
}

export interface RescanReport {
  started: number;
  joined: number;
  skipped: number;
  /** Companies left unqueued because the queue was full (without `wait`). */
  notQueued: number;
}

export async function rescanCompanies(
  deps: { db: Db; scans: ScanService },
  selection: Selection,
  total: number,
  options: RescanOptions,
  hooks: RescanHooks,
): Promise<RescanReport> {
  const report: RescanReport = { started: 0, joined: 0, skipped: 0, notQueued: 0 };
  let done = 0;
  for await (const page of companyPages(deps.db, selection, 1_000)) {
    for (const company of page) {
      const target = deps.scans.normalize(company.website);
      if (!target.ok) {
        report.skipped += 1;
        done += 1;
        hooks.skipped(company, `its website ${company.website} cannot be scanned: ${target.reason}`);
        continue;
      }
      for (;;) {
        try {
          const outcome = await deps.scans.start(target.value, { origin: 'rescan' });
          if (outcome.started) report.started += 1;
          else report.joined += 1;
          hooks.queued(company, outcome.scan.id, outcome.started);
          break;
        } catch (err) {
          if (!(err instanceof ApiError) || err.code !== 'queue_full') throw err;
          if (!options.wait || options.signal?.aborted) {
            report.notQueued = Math.max(1, total - done);
            return report;
          }
          hooks.full?.();
          await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 5_000));
        }
      }
      done += 1;
    }
  }
  return report;
}
