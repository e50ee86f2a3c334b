// Ending a scan: ONE transaction writes the outcome, the check results and layer scores, the company's current
// result and its score history, the outbox mails, and the state change to `ended` (activeTarget cleared, so the
// next submission of the target starts a new scan). The caller publishes the change after the commit.
import { randomUUID } from 'node:crypto';
import { cleanSiteText, type ScanResult } from '@arl/scanner';
import type { JobQueue, Tx } from '../jobs/queue';
import { composeScanMail } from '../mail/compose';
import { queueMail } from '../mail/mail-job';
import { companyFactsQuery, toCompanyFacts } from '../leaderboard/company-facts';
import type { CompanyFacts } from '../leaderboard/live-index';
import type { RecordedRanks } from '../reports/record-rank';
import { detailOf, scanDetailSql } from './detail';
import type { ScanEnded } from './scan-ended';
import { appendEvent } from './events';

export type ScanOutcome = Pick<ScanResult, 'ending' | 'cause' | 'score' | 'grade' | 'summary' | 'siteName' | 'checks' | 'layers'> &
  Partial<Pick<ScanResult, 'kind' | 'finalUrl' | 'catalogVersion'>>;

export interface EndScanDeps {
  queue: JobQueue;
  publicUrl: string;
  now: Date;
  /**
   * Runs last in the transaction that ends the scan (webhooks queue their deliveries there: an outbox, see
   * ScanEndedEvents.write); returns the job kinds to wake once it commits.
   */
  onEnded?(tx: Tx, ended: ScanEnded): Promise<string[]>;
  /**
   * The ranks the company will have with its new facts (the process's live index; null without one): recorded on
   * the history point in this transaction. Without them the caller records the ranks after the commit.
   */
  ranksIf?(facts: CompanyFacts): RecordedRanks | null;
}

/** What a scan's end was, for whoever follows it (webhooks/events.ts). */
export interface ScanEnding {
  scanId: string;
  domain: string;
  /** The company the scan belongs to (null for an unscored scan of an unknown domain). */
  companyId: string | null;
  /** Whether the scan set the company's result (a finished scan with a score). */
  scored: boolean;
  outcome: ScanOutcome;
  cause: string;
  endedAt: Date;
  /** Community companies' pages need ?community=include. */
  community: boolean;
}

const DEFAULT_CAUSE: Record<ScanResult['ending'], string> = {
  finished: 'The scan finished and was scored.',
  failed: 'The target could not be scanned.',
  interrupted: 'The scan was interrupted.',
  sign_in_required: 'Nothing public was reachable without signing in.',
};

export interface EndedScan {
  scored: boolean;
  mails: number;
  /** A scored scan's company as it now is, read in the transaction: the change the leaderboard applies (changes.ts). */
  company?: CompanyFacts;
  /** Job kinds the scan's followers (onEnded) queued work for: woken once the transaction commits. */
  wake: string[];
  /** Whether the history point's ranks were recorded in the transaction (deps.ranksIf answered). */
  ranksRecorded: boolean;
  /** The scan's end as written, told to its followers once the transaction commits (scan-ended.ts). */
  event: ScanEnded;
}

/**
 * Returns whether the company result changed (a finished scan), with the company's new facts, and how many mails
 * were queued, or null when the scan had already ended. Every write is raw SQL and the rows of a scan go in as one JSON document per table: with
 * the embedded database each statement (and each of Prisma's per-row parameters) is work on the event loop.
 */
export async function endScan(tx: Tx, scanId: string, outcome: ScanOutcome, deps: EndScanDeps): Promise<EndedScan | null> {
  const [scan] = await tx.$queryRawUnsafe<Array<{
    id: string; state: string; url: string; domain: string; origin: string; company_id: string | null; recipients: string[] | null;
  }>>(
    `SELECT s.id, s.state::text AS state, s.url, s.domain, s.origin, s.company_id,
            (SELECT array_agg(r.email ORDER BY r.email) FROM scan_recipients r WHERE r.scan_id = s.id) AS recipients
     FROM scans s WHERE s.id = $1::uuid`,
    scanId,
  );
  if (!scan || scan.state === 'ended') return null;
  const { now } = deps;
  const scored = outcome.ending === 'finished' && outcome.score !== null && outcome.grade !== null;
  let companyId = scan.company_id;
  let community = false;
  let company: CompanyFacts | undefined;
  let ranks: RecordedRanks | null = null;

  if (scored) {
    // Insert-if-absent, so two scans of one unknown domain ending at once create one community company; a curated
    // company keeps its name, category and source: only the result changes.
    // The company's score history point goes in with it (one statement fewer per scan's end).
    const [written] = await tx.$queryRawUnsafe<Array<{ id: string; source: string }>>(
      `WITH written AS (
         INSERT INTO companies (id, name, website, domain, source, demo, score, grade, summary, scanned_at, latest_scan_id, updated_at)
         VALUES ($1::uuid, $2::text, $3::text, $4::varchar, 'community', $5::boolean, $6::int, $7::varchar, $8::text,
                 $9::timestamptz, $10::uuid, now())
         ON CONFLICT (domain) DO UPDATE SET score = EXCLUDED.score, grade = EXCLUDED.grade, summary = EXCLUDED.summary,
                scanned_at = EXCLUDED.scanned_at, latest_scan_id = EXCLUDED.latest_scan_id, updated_at = now()
         RETURNING id, source::text AS source),
       point AS (
         INSERT INTO score_history (company_id, scan_id, score, grade, recorded_at)
         SELECT id, $10::uuid, $6::int, $7::varchar, $9::timestamptz FROM written)
       SELECT id, source FROM written`,
      // The site's own words pass the scanner's one door again here, where they enter storage (a ScanResult from
      // an older scanner or a test never bypasses it).
      randomUUID(), cleanSiteText(outcome.siteName) ?? scan.domain, new URL(outcome.finalUrl ?? scan.url).origin,
      scan.domain, scan.origin === 'demo', outcome.score!, outcome.grade!, outcome.summary ?? null, now, scan.id,
    );
    companyId = written.id;
    community = written.source === 'community';
    // The point's ranks come from the live index (deps.ranksIf, O(log n)) and go in with the scan's state below;
    // without an index they are counted after the commit (recordRanks): counting everyone ahead here cost O(n) per
    // scan's end inside the transaction (~30 ms at 100,000 companies, a full scan of companies at 1,000,000).
    // The change the leaderboard applies, as committed (one statement; see leaderboard/company-facts.ts).
    const facts = companyFactsQuery([companyId], now);
    const [row] = await tx.$queryRawUnsafe<unknown[]>(facts.sql, ...facts.params);
    company = toCompanyFacts(row);
    ranks = deps.ranksIf?.(company) ?? null;
  }

  if (!scored) {
    const [known] = await tx.$queryRawUnsafe<Array<{ source: string }>>(
      `SELECT source::text AS source FROM companies WHERE domain = $1::varchar`,
      scan.domain,
    );
    community = known?.source !== 'curated';
  }

  const detail = detailOf(outcome);
  if (outcome.checks.length > 0) {
    // Checks and layers in one statement, each table's rows as one JSON parameter.
    await tx.$executeRawUnsafe(
      `WITH checks AS (
         INSERT INTO check_results (scan_id, check_id, name, layer, tier, label, bonus, status, earned, points, position, evidence, fix)
         SELECT $1::uuid, c.check_id, c.name, c.layer, c.tier, c.label, c.bonus, c.status, c.earned, c.points, c.position, c.evidence, c.fix
         FROM jsonb_to_recordset($2::jsonb) AS c(check_id text, name text, layer text, tier text, label text, bonus boolean,
              status text, earned double precision, points int, position int, evidence jsonb, fix text)
         RETURNING 1)
       INSERT INTO layer_scores (scan_id, layer, weight, score, position)
       SELECT $1::uuid, l.layer, l.weight, l.score, l.position
       FROM jsonb_to_recordset($3::jsonb) AS l(layer text, weight int, score int, position int)`,
      scan.id,
      // The rows of `detail` (what the scan's end then carries), with what only the database keeps.
      JSON.stringify(detail.checks.map((c, position) => ({
        check_id: c.checkId, name: c.name, layer: c.layer, tier: c.tier, label: c.label, bonus: c.bonus, status: c.status,
        earned: c.earned, points: c.points, position, evidence: outcome.checks[position].evidence ?? null, fix: outcome.checks[position].fix ?? null,
      }))),
      JSON.stringify(detail.layers.map((l, position) => ({ layer: l.layer, weight: l.weight, score: l.score, position }))),
    );
  }

  const cause = outcome.cause?.trim() || DEFAULT_CAUSE[outcome.ending];
  // The history point's ranks ride on this statement (one statement fewer per scan's end: each is ~1 ms of the
  // embedded database's time on the thread that answers reads).
  await tx.$executeRawUnsafe(
    `WITH ranked AS (
       UPDATE score_history SET rank_all = $13::int, rank_curated = $14::int
       WHERE $13::int IS NOT NULL AND scan_id = $1::uuid AND company_id = $5::uuid)
     UPDATE scans SET state = 'ended', active_target = NULL, ending = $2::text::"ScanEnding", cause = $3::text,
            ended_at = $4::timestamptz, company_id = $5::uuid, kind = COALESCE($6::text, kind),
            catalog_version = COALESCE($7::text, catalog_version),
            score = CASE WHEN $8::boolean THEN $9::int ELSE score END,
            grade = CASE WHEN $8::boolean THEN $10::varchar ELSE grade END,
            summary = CASE WHEN $8::boolean THEN $11::text ELSE summary END,
            detail = CASE WHEN $12::boolean THEN ${scanDetailSql('$1::uuid')} ELSE detail END
     WHERE id = $1::uuid`,
    scan.id, outcome.ending, cause, now, companyId, outcome.kind ?? null,
    outcome.checks.length > 0 ? outcome.catalogVersion ?? null : null,
    scored, scored ? outcome.score : null, scored ? outcome.grade : null, scored ? outcome.summary ?? null : null,
    // The company read's copy of the rows just written (see detail.ts).
    outcome.checks.length > 0,
    ranks?.all ?? null, ranks?.curated ?? null,
  );
  await appendEvent(tx, scan.id, 'ended', now);

  const recipients = scan.recipients ?? [];
  for (const email of recipients) {
    const mail = composeScanMail({
      scanId: scan.id, domain: scan.domain, ending: outcome.ending, cause,
      score: scored ? outcome.score : null, grade: scored ? outcome.grade : null, community, publicUrl: deps.publicUrl,
    });
    await queueMail(tx, deps.queue, { scanId: scan.id, to: email, ...mail });
  }
  const event: ScanEnded = {
    scanId: scan.id, domain: scan.domain, companyId, scored, outcome, cause, endedAt: now, community, detail, ...(company && { company }),
  };
  const wake = (await deps.onEnded?.(tx, event)) ?? [];
  return { scored, mails: recipients.length, wake, ranksRecorded: ranks !== null, event, ...(company && { company }) };
}
