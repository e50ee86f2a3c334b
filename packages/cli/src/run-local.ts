// A scan in this process with the scanner package (`--local`): no service, same checks and scoring.
import { scan } from '@arl/scanner';
import { CliError } from './errors';
import type { ScanOutcome } from './model';
import type { Progress } from './progress';
import { toGateCheck } from './run-api';

export async function runLocally(o: { url: string; allowPrivate: boolean; timeoutMs: number; progress: Progress }): Promise<ScanOutcome> {
  o.progress(`scanning ${o.url} locally${o.allowPrivate ? ' (private addresses allowed)' : ''}`);
  const result = await scan(o.url, {
    signal: AbortSignal.timeout(o.timeoutMs),
    onProgress: (step) => o.progress(`step ${step}`),
    fetchPolicy: { allowPrivateNetworks: o.allowPrivate, scanBudgetMs: Math.min(o.timeoutMs, 120_000) },
  });
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
