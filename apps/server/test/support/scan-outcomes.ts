// Scans with exact outcomes: started through the API (a real scan row and job), then ended in one transaction by
// endScan as the worker would, with the checks and score the test chooses and webhook fan-out included.
import type { ScanOutcome } from '../../src/scans/results';
import { endScan } from '../../src/scans/results';
import { WEBHOOK_JOB, queueWebhookEvents } from '../../src/webhooks/events';
import type { ScanTestServer } from './scan-harness';

export type TestCheck = ScanOutcome['checks'][number];

export const check = (id: string, status: 'passed' | 'failed' | 'warning', points = 10, layer: TestCheck['layer'] = 'discovery'): TestCheck => ({
  id, name: `Check ${id}`, layer, tier: 'required', label: null, bonus: false, status,
  earned: status === 'passed' ? points : status === 'warning' ? points / 2 : 0, points,
} as TestCheck);

export const finished = (score: number, grade: ScanOutcome['grade'], checks: TestCheck[], layers: ScanOutcome['layers'] = []): ScanOutcome => ({
  ending: 'finished', cause: null, score, grade, summary: 'Scored.', siteName: null, checks, layers,
});

export const failed = (): ScanOutcome => ({ ending: 'failed', cause: 'The host name could not be resolved (DNS).', score: null, grade: null, summary: null, siteName: null, checks: [], layers: [] });

let scans = 0;
/** Starts a scan of `url` (made unique) through the API and ends it with `outcome` at `now`. */
export async function scanEnding(t: ScanTestServer, url: string, outcome: ScanOutcome, now = new Date()): Promise<{ id: string; domain: string }> {
  const unique = `${url}${url.includes('?') ? '&' : '?'}n=${(scans += 1)}`;
  const { data, error } = await t.client.POST('/v1/leaderboard/scans', { body: { url: unique } });
  if (error) throw new Error(JSON.stringify(error));
  const ended = await t.db.prisma.$transaction((tx) =>
    endScan(tx, data!.scan.id, outcome, {
      queue: t.runtime.jobs, publicUrl: t.config.publicUrl, now,
      onEnded: async (tx2, e) => ((await queueWebhookEvents(tx2, t.runtime.jobs, e, t.config.publicUrl)) > 0 ? [WEBHOOK_JOB] : []),
    }));
  for (const kind of ended?.wake ?? []) t.runtime.jobs.notify(kind);
  await t.runtime.changes.publish();
  return { id: data!.scan.id, domain: data!.domain };
}
