// `npm run companies -- import FILE`: a company list into the companies table, in one transaction.
//
//   read the file line by line ─ judge each line (list-file.ts) ─ stream the rows into a temporary table
//   (COPY on PostgreSQL, batched inserts on PGlite; session.ts) ─ refuse duplicates ─ any refused line and no
//   --skip-invalid: roll back, nothing changed ─ one INSERT ... ON CONFLICT (domain) DO UPDATE ... WHERE <differs>
//   counting added and updated rows ─ --prune: one DELETE of the curated companies the list does not name ─ commit.
//
// Idempotent: a row whose values are already the company's is not written at all (the WHERE of the upsert), so a
// second import of the same file writes nothing, and takes no change_version (the trigger fires on writes only).
// A field the list leaves empty keeps the company's value (a new company: named after its domain, website
// https://<domain>). Imports take a lock per schema, so two at once run one after the other.
//
// Running API processes: an insert or update takes a new change_version, which every API process on PostgreSQL
// reads within 2 s (leaderboard/catch-up.ts); a deletion leaves no row to read, so the caller publishes a reload
// when `removed` > 0 (cli/companies-commands.ts).
import type { Db } from '@arl/db';
import { readCompanyList, UnreadableList, type ListProgress, type ListRules } from './list-file';
import { openImportSession } from './session';

export type CompanySource = 'curated' | 'community';

export interface ImportOptions extends ListRules {
  file: string;
  source: CompanySource;
  prune: boolean;
  skipInvalid: boolean;
}

export interface ImportHooks {
  refused(line: number, reason: string): void;
  reading?(rows: number, progress: ListProgress): void;
  /** A step has ended (what it did); the caller times it. */
  step?(done: string): void;
}

export interface ImportReport {
  /** Data lines read (the header and blank lines aside). */
  read: number;
  /** Distinct companies the accepted lines name. */
  listed: number;
  refused: number;
  /** False when refused lines stopped the import (nothing changed). */
  imported: boolean;
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  /** Up to 10 of the removed domains, for the message. */
  removedSample: string[];
}

/** Refused input that stops the whole import, nothing changed (the caller exits 1): a file that is no list. */
export class ImportRefused extends Error {}

const STAGED = 'census_staged';
const REMOVED_SAMPLE = 10;

export async function importCompanyList(db: Db, options: ImportOptions, hooks: ImportHooks): Promise<ImportReport> {
  const session = await openImportSession(db);
  const report: ImportReport = { read: 0, listed: 0, refused: 0, imported: false, added: 0, updated: 0, unchanged: 0, removed: 0, removedSample: [] };
  let open = false;
  try {
    await session.query('BEGIN');
    open = true;
    await session.query(`SELECT pg_advisory_xact_lock(hashtext('arl-census:' || current_schema()))::text AS locked`);
    await session.query(
      `CREATE TEMPORARY TABLE ${STAGED} (line int NOT NULL, domain text NOT NULL, name text, website text, category_id uuid,
         refused boolean NOT NULL) ON COMMIT DROP`,
    );

    const stager = session.stage(STAGED);
    let accepted = 0;
    try {
      for await (const entry of readCompanyList(options.file, options, (p) => hooks.reading?.(report.read, p))) {
        report.read += 1;
        if (entry.kind === 'row') {
          accepted += 1;
          await stager.add({ ...entry.row, refused: false });
        } else {
          report.refused += 1;
          hooks.refused(entry.line, entry.reason);
          if (entry.domain !== null) {
            await stager.add({ line: entry.line, domain: entry.domain, name: null, website: null, categoryId: null, refused: true });
          }
        }
      }
    } catch (err) {
      // The staging stream is ended first: on PostgreSQL a COPY left open would hold the ROLLBACK below back.
      await stager.finish().catch(() => undefined);
      // Not a list (not UTF-8 text, empty): even --skip-invalid imports nothing of it (the finally rolls back).
      if (err instanceof UnreadableList) throw new ImportRefused(`Nothing imported: ${err.message}.`);
      throw err;
    }
    await stager.finish();
    await session.query(`ANALYZE ${STAGED}`);
    hooks.step?.(`read ${report.read.toLocaleString('en-US')} lines`);

    // Two lines naming one company: the first counts, the others are refused (an upsert may not write a row twice).
    const duplicates = await session.query<{ line: number; domain: string; first: number }>(
      `SELECT s.line, s.domain, d.first
       FROM (SELECT domain, min(line) AS first FROM ${STAGED} WHERE NOT refused GROUP BY domain HAVING count(*) > 1) d
       JOIN ${STAGED} s ON s.domain = d.domain AND NOT s.refused AND s.line <> d.first
       ORDER BY s.line`,
    );
    for (const d of duplicates) hooks.refused(d.line, `${d.domain} is listed already on line ${d.first}`);
    report.refused += duplicates.length;
    report.listed = accepted - duplicates.length;
    hooks.step?.(`checked for duplicates (${duplicates.length.toLocaleString('en-US')})`);
    if (report.refused > 0 && !options.skipInvalid) {
      await session.query('ROLLBACK');
      open = false;
      return report;
    }
    if (duplicates.length > 0) {
      await session.query(
        `UPDATE ${STAGED} s SET refused = true
         FROM (SELECT domain, min(line) AS first FROM ${STAGED} WHERE NOT refused GROUP BY domain HAVING count(*) > 1) d
         WHERE s.domain = d.domain AND NOT s.refused AND s.line <> d.first`,
      );
    }
    if (options.prune && report.listed === 0) {
      throw new ImportRefused('The list names no company: --prune would remove every curated company, so nothing was changed.');
    }

    // The values each company ends with are computed against its current row (LEFT JOIN): a field the list leaves
    // empty keeps the company's value. Rows already as listed are left out before the insert (an upsert that meets
    // a conflict locks and rewrites the row's header even when its WHERE declines the update), and the rest go in
    // in domain order (the unique index is filled in order: a quarter faster at a million). xmax = 0 tells an
    // inserted row from an updated one. A company that a scan's end inserts between the read and the write (a
    // community scan of that very domain, that very moment) meets the ON CONFLICT and takes the list's values.
    const [merged] = await session.query<{ added: number; updated: number }>(
      `WITH wanted AS (
         SELECT s.domain, coalesce(s.name, e.name, s.domain) AS name,
                coalesce(s.website, e.website, CASE WHEN strpos(s.domain, ':') > 0 THEN 'https://[' || s.domain || ']' ELSE 'https://' || s.domain END) AS website,
                coalesce(s.category_id, e.category_id) AS category_id,
                e.id IS NULL OR (e.name, e.website, e.category_id, e.source) IS DISTINCT FROM
                  (coalesce(s.name, e.name), coalesce(s.website, e.website), coalesce(s.category_id, e.category_id), $1::"CompanySource") AS differs
         FROM ${STAGED} s LEFT JOIN companies e ON e.domain = s.domain
         WHERE NOT s.refused),
       merged AS (
         INSERT INTO companies AS c (id, name, website, domain, category_id, source, updated_at)
         SELECT gen_random_uuid(), w.name, w.website, w.domain, w.category_id, $1::"CompanySource", now()
         FROM wanted w WHERE w.differs ORDER BY w.domain
         ON CONFLICT (domain) DO UPDATE SET name = EXCLUDED.name, website = EXCLUDED.website,
                category_id = EXCLUDED.category_id, source = EXCLUDED.source, updated_at = now()
         WHERE (c.name, c.website, c.category_id, c.source) IS DISTINCT FROM
               (EXCLUDED.name, EXCLUDED.website, EXCLUDED.category_id, EXCLUDED.source)
         RETURNING (xmax = 0) AS added)
       SELECT (count(*) FILTER (WHERE added))::int AS added, (count(*) FILTER (WHERE NOT added))::int AS updated FROM merged`,
      [options.source],
    );
    report.added = merged.added;
    report.updated = merged.updated;
    report.unchanged = report.listed - merged.added - merged.updated;
    hooks.step?.(`wrote ${(merged.added + merged.updated).toLocaleString('en-US')} of ${report.listed.toLocaleString('en-US')} companies`);

    if (options.prune) {
      // Their scans stay (scans.company_id is ON DELETE SET NULL: every scan, its checks and its report stay
      // readable by scan id); their score history and journeys go with them (ON DELETE CASCADE: read only
      // through the company).
      const [gone] = await session.query<{ removed: number; sample: string[] | null }>(
        `WITH gone AS (
           DELETE FROM companies c WHERE c.source = 'curated'
             AND NOT EXISTS (SELECT 1 FROM ${STAGED} s WHERE s.domain = c.domain)
           RETURNING c.domain)
         SELECT (SELECT count(*)::int FROM gone) AS removed,
                (SELECT array_agg(domain) FROM (SELECT domain FROM gone ORDER BY domain LIMIT ${REMOVED_SAMPLE}) first) AS sample`,
      );
      report.removed = gone.removed;
      report.removedSample = gone.sample ?? [];
      hooks.step?.(`removed ${gone.removed.toLocaleString('en-US')} curated companies the list does not name`);
    }
    await session.query('COMMIT');
    open = false;
    hooks.step?.('committed');
    report.imported = true;
    return report;
  } finally {
    if (open) await session.query('ROLLBACK').catch(() => undefined);
    await session.close();
  }
}
