// A scan through the service: operation 5 (start or join), operation 6 polled until the scan ends (each new step
// reported as progress), then the scan's report (getScanReport) for the checks and their fixes. Every request and
// every wait ends by the run's deadline (--timeout); every answer is bounded and checked (service-client.ts).
import type { LeaderboardClient, LeaderboardSchemas } from '@arl/client';
import type { Deadline } from './deadline';
import { CliError } from './errors';
import type { GateCheck, ScanOutcome } from './model';
import type { Progress } from './progress';
import { serviceClient } from './service-client';

export interface ApiRunOptions {
  api: string;
  url: string;
  deadline: Deadline;
  progress: Progress;
  /** Poll interval of operation 6 (default 1 s). */
  pollMs?: number;
}

/** How often a refused start (429, 503) is tried again, and the longest Retry-After we wait for. */
const START_ATTEMPTS = 4;
const MAX_RETRY_AFTER_S = 30;

export async function runThroughService(o: ApiRunOptions): Promise<ScanOutcome> {
  const client = serviceClient(o.api, o.deadline);
  const start = await startScan(client, o);
  o.progress(`${start.started ? 'started' : 'joined the running'} scan ${start.scan.id} of ${start.domain} on ${o.api}`);

  let seen = 0;
  let scan: LeaderboardSchemas['Scan'];
  for (;;) {
    scan = await call(o.api, 'read the scan', () => client.GET('/v1/leaderboard/scans/{scanId}', { params: { path: { scanId: start.scan.id } } }));
    for (const event of scan.events.slice(seen)) o.progress(`step ${event.step}`);
    seen = scan.events.length;
    if (scan.state === 'ended') break;
    await o.deadline.sleep(o.pollMs ?? 1000);
    if (o.deadline.expired) throw new CliError(`The scan ${scan.id} did not end within ${o.deadline.describe()} (still ${scan.state}).`);
  }
  if (scan.ending !== 'finished') {
    throw new CliError(`The scan of ${o.url} ended ${scan.ending}: ${scan.cause ?? 'no cause given'}`);
  }
  const report = await call(o.api, 'read the scan report', () =>
    client.GET('/v1/leaderboard/scans/{scanId}/report', { params: { path: { scanId: scan.id } } }),
  );
  if (report.score === null || report.grade === null) throw new CliError(`The scan ${scan.id} ended without a score: ${report.cause}`);
  return {
    url: o.url,
    domain: report.domain,
    mode: 'api',
    scanId: report.scanId,
    reportUrl: `${o.api}/scans/${report.scanId}`,
    scannedAt: report.scannedAt,
    ending: report.ending,
    cause: report.cause,
    score: report.score,
    grade: report.grade,
    checks: report.checks.map(toGateCheck),
  };
}

export function toGateCheck(c: Pick<GateCheck, 'id' | 'name' | 'layer' | 'status' | 'earned' | 'points' | 'fix'>): GateCheck {
  return { id: c.id, name: c.name, layer: c.layer, status: c.status, earned: c.earned, points: c.points, fix: c.fix };
}

async function startScan(client: LeaderboardClient, o: ApiRunOptions): Promise<LeaderboardSchemas['ScanStart']> {
  for (let attempt = 1; ; attempt += 1) {
    const res = await reach(o.api, () => client.POST('/v1/leaderboard/scans', { body: { url: o.url } }));
    if (res.data) return res.data;
    const status = res.response.status;
    const retryAfter = Number(res.response.headers.get('retry-after') ?? NaN);
    const waitS = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 5;
    // A wait that would end after the deadline is not worth starting: the refusal below says why instead.
    if ((status === 429 || status === 503) && attempt < START_ATTEMPTS && !(retryAfter > MAX_RETRY_AFTER_S) && waitS * 1000 < o.deadline.remainingMs()) {
      o.progress(`the service answered ${status} (${errorText(res.error)}); trying again in ${waitS} s`);
      await o.deadline.sleep(waitS * 1000);
      continue;
    }
    if (status === 422) throw new CliError(`The service cannot scan ${o.url}: ${errorText(res.error)}`);
    throw new CliError(`The service refused the scan (${status}): ${errorText(res.error)}`);
  }
}

/** One read: a transport failure or an error answer becomes a CliError (exit 2) naming what failed. */
async function call<T>(api: string, what: string, request: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const res = await reach(api, request);
  if (res.data === undefined) throw new CliError(`Could not ${what} (${res.response.status}): ${errorText(res.error)}`);
  return res.data;
}

export async function reach<R>(api: string, request: () => Promise<R>): Promise<R> {
  try {
    return await request();
  } catch (err) {
    if (err instanceof CliError) throw err; // already a sentence: late, too large, off-contract
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(`The service at ${api} is unreachable (${cause?.code ?? cause?.message ?? (err as Error).message}).`);
  }
}

export function errorText(error: unknown): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : 'no explanation given';
}
