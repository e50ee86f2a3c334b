// Ending a scan: ONE transaction writes the outcome, the check results and layer scores, the company's current
// result and its score history, the outbox mails, and the state change to `ended` (activeTarget cleared, so the
// next submission of the target starts a new scan). The caller publishes the change after the commit.
import { randomUUID } from 'node:crypto';
import type { ScanResult } from '@arl/scanner';
import type { JobQueue, Tx } from '../jobs/queue';
import { composeScanMail } from '../mail/compose';
import { queueMail } from '../mail/mail-job';
import { ranksNow } from '../reports/record-rank';
import { appendEvent } from './events';
import { scanDetailSql } from './detail';

export type ScanOutcome = Pick<ScanResult, 'ending' | 'cause' | 'score' | 'grade' | 'summary' | 'siteName' | 'checks' | 'layers'> &
  Partial<Pick<ScanResult, 'kind' | 'finalUrl' | 'catalogVersion'>>;

export interface EndScanDeps {
  queue: JobQueue;
  publicUrl: string;
  now: Date;
}

const DEFAULT_CAUSE: Record<ScanResult['ending'], string> = {
  finished: 'The scan finished and was scored.',
  failed: 'The target could not be scanned.',
  interrupted: 'The scan was interrupted.',
  sign_in_required: 'Nothing public was reachable without signing in.',
};

/** Returns whether the company result changed (a finished scan), or null when the scan had already ended. */
export async function endScan(tx: Tx, scanId: string, outcome: ScanOutcome, deps: EndScanDeps): Promise<{ scored: boolean } | null> {
  const scan = await tx.scan.findUnique({
    where: { id: scanId },
    select: { id: true, state: true, url: true, domain: true, origin: true, companyId: true, recipients: { select: { email: true } } },
  });
  if (!scan || scan.state === 'ended') return null;
  const { now } = deps;
  const scored = outcome.ending === 'finished' && outcome.score !== null && outcome.grade !== null;
  let companyId = scan.companyId;
  let community = false;

  if (scored) {
    const current = { score: outcome.score!, grade: outcome.grade!, summary: outcome.summary, scannedAt: now, latestScanId: scan.id };
    // Insert-if-absent, so two scans of one unknown domain ending at once create one community company.
    await tx.$executeRawUnsafe(
      `INSERT INTO companies (id, name, website, domain, source, demo, updated_at)
       VALUES ($1::uuid, $2::text, $3::text, $4::varchar, 'community', $5::boolean, now()) ON CONFLICT (domain) DO NOTHING`,
      randomUUID(), (outcome.siteName?.trim() || scan.domain).slice(0, 200), new URL(outcome.finalUrl ?? scan.url).origin,
      scan.domain, scan.origin === 'demo',
    );
    // A curated company keeps its name, category and source: only the result changes.
    const company = await tx.company.update({ where: { domain: scan.domain }, data: current, select: { id: true, source: true } });
    companyId = company.id;
    community = company.source === 'community';
    const ranks = await ranksNow(tx, companyId!);
    await tx.scoreHistory.create({
      data: {
        companyId: companyId!, scanId: scan.id, score: outcome.score!, grade: outcome.grade!, recordedAt: now,
        rankAll: ranks?.all ?? null, rankCurated: ranks?.curated ?? null,
      },
    });
  }

  if (!scored) {
    const known = await tx.company.findUnique({ where: { domain: scan.domain }, select: { source: true } });
    community = known?.source !== 'curated';
  }

  if (outcome.checks.length > 0) {
    await tx.checkResult.createMany({
      data: outcome.checks.map((c, position) => ({
        scanId: scan.id, checkId: c.id, name: c.name, layer: c.layer, tier: c.tier, label: c.label, bonus: c.bonus,
        status: c.status, earned: c.earned, points: c.points, position, evidence: c.evidence as object, fix: c.fix,
      })),
    });
    await tx.layerScore.createMany({
      data: outcome.layers.map((l, position) => ({ scanId: scan.id, layer: l.id, weight: l.weight, score: l.score, position })),
    });
    // The company read's copy, from the rows just written (see detail.ts).
    await tx.$executeRawUnsafe(`UPDATE scans SET detail = ${scanDetailSql('$1::uuid')} WHERE id = $1::uuid`, scan.id);
  }

  const cause = outcome.cause?.trim() || DEFAULT_CAUSE[outcome.ending];
  await tx.scan.update({
    where: { id: scan.id },
    data: {
      state: 'ended', activeTarget: null, ending: outcome.ending, cause, endedAt: now, companyId,
      kind: outcome.kind ?? undefined,
      catalogVersion: outcome.checks.length > 0 ? outcome.catalogVersion : undefined,
      ...(scored ? { score: outcome.score, grade: outcome.grade, summary: outcome.summary } : {}),
    },
  });
  await appendEvent(tx, scan.id, 'ended', now);

  for (const { email } of scan.recipients) {
    const mail = composeScanMail({
      scanId: scan.id, domain: scan.domain, ending: outcome.ending, cause,
      score: scored ? outcome.score : null, grade: scored ? outcome.grade : null, community, publicUrl: deps.publicUrl,
    });
    await queueMail(tx, deps.queue, { scanId: scan.id, to: email, ...mail });
  }
  return { scored };
}
