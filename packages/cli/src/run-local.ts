// A scan in this process with the scanner package (`--local`): no service, same checks and scoring.
import type * as Scanner from '@arl/scanner';
import type { Deadline } from './deadline';
import { CliError } from './errors';
import type { ScanOutcome } from './model';
import type { Progress } from './progress';
import { toGateCheck } from './run-api';

/**
 * The scanner, loaded on first use: it takes over a second to load (the MCP SDK, zod, the check catalog) and a run
 * through the service never needs it, so `arl check` starts counting its --timeout that much sooner.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const scanner = (): typeof Scanner => require('@arl/scanner') as typeof Scanner;

export async function runLocally(o: { url: string; allowPrivate: boolean; deadline: Deadline; progress: Progress }): Promise<ScanOutcome> {
  if (!o.allowPrivate) await refusePrivateTarget(o.url, o.deadline);
  o.progress(`scanning ${o.url} locally${o.allowPrivate ? ' (private addresses allowed)' : ''}`);
  const result = await scanner().scan(o.url, {
    signal: o.deadline.signal(),
    onProgress: (step) => o.progress(`step ${step}`),
    fetchPolicy: { allowPrivateNetworks: o.allowPrivate, scanBudgetMs: Math.min(o.deadline.remainingMs(), 120_000) },
  });
  if (result.ending === 'interrupted' && o.deadline.expired) throw new CliError(`The scan of ${o.url} did not end within ${o.deadline.describe()}.`);
  if (result.ending !== 'finished' || result.score === null || result.grade === null) {
    throw new CliError(`The scan of ${o.url} ended ${result.ending}: ${result.cause ?? 'no cause given'}`);
  }
  const domain = new URL(result.finalUrl ?? result.url).hostname.replace(/^www\./, '');
  return {
    url: o.url,
    domain,
    mode: 'local',
    scanId: null,
    reportUrl: null,
    scannedAt: new Date().toISOString(),
    ending: result.ending,
    cause: result.cause ?? 'The scan finished and was scored.',
    score: result.score,
    grade: result.grade,
    checks: result.checks.map(toGateCheck),
  };
}

/**
 * The scanner's own address rule, asked before the scan: a loopback or private target (a preview server in the
 * job, the usual case for --local) is refused with the option that allows it, not with the service's sentence
 * "we do not scan" that leaves the user guessing. Other outcomes (DNS failures) are the scan's to report.
 */
async function refusePrivateTarget(url: string, deadline: Deadline): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), deadline.remainingMs())));
  const checked = await Promise.race([scanner().checkScannableUrl(url, { allowPrivateNetworks: false }), late]).finally(() => clearTimeout(timer));
  if (checked === null) throw new CliError(`The address of ${url} could not be resolved within ${deadline.describe()}.`);
  if (!checked.ok && checked.code === 'blocked_address') {
    throw new CliError(`${new URL(url).host} is a loopback or private address: --local scans it only with --allow-private (for a server started in the job).`);
  }
}
