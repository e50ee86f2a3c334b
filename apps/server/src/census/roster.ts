// The companies table one company (or one page) at a time, for the operator's CLI: add, remove, rename, move, list
// and the companies a rescan names. Keyset pages, so a list of a million companies streams with flat memory.
import type { Db } from '@arl/db';
import type { CompanySource } from './import';

export interface RosterCompany {
  id: string;
  domain: string;
  name: string;
  website: string;
  category: string | null;
  source: CompanySource;
  score: number | null;
  grade: string | null;
  scannedAt: Date | null;
}

export interface Selection {
  domains?: string[];
  categoryId?: string;
  source?: CompanySource;
  /** Never scanned, or last scanned before this instant. */
  scannedBefore?: Date;
}

export const PAGE = 5_000;

export async function categoryMap(db: Db): Promise<Map<string, string>> {
  const { rows } = await db.executeSql(`SELECT slug, id::text AS id FROM categories`);
  return new Map((rows as Array<{ slug: string; id: string }>).map((r) => [r.slug, r.id]));
}

/** The companies of `selection` in domain order, a page at a time. */
export async function* companyPages(db: Db, selection: Selection, pageSize = PAGE): AsyncGenerator<RosterCompany[]> {
  let after = '';
  for (;;) {
    const { rows } = await db.executeSql(
      `SELECT c.id::text AS id, c.domain, c.name, c.website, k.slug AS category, c.source::text AS source, c.score, c.grade, c.scanned_at
       FROM companies c LEFT JOIN categories k ON k.id = c.category_id
       WHERE c.domain > $1::varchar
         AND ($2::text IS NULL OR c.domain = ANY(string_to_array($2::text, ',')))
         AND ($3::uuid IS NULL OR c.category_id = $3::uuid)
         AND ($4::text IS NULL OR c.source::text = $4::text)
         AND ($5::timestamptz IS NULL OR c.scanned_at IS NULL OR c.scanned_at < $5::timestamptz)
       ORDER BY c.domain LIMIT ${pageSize}`,
      [after, selection.domains ? selection.domains.join(',') : null, selection.categoryId ?? null, selection.source ?? null, selection.scannedBefore ?? null],
    );
    const page = (rows as Array<Record<string, unknown>>).map(
      (r): RosterCompany => ({
        id: r.id as string,
        domain: r.domain as string,
        name: r.name as string,
        website: r.website as string,
        category: (r.category as string | null) ?? null,
        source: r.source as CompanySource,
        score: r.score === null ? null : Number(r.score),
        grade: (r.grade as string | null) ?? null,
        scannedAt: r.scanned_at === null ? null : new Date(r.scanned_at as string),
      }),
    );
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1].domain;
  }
}

/** How many companies a selection names (for the progress of a rescan). */
export async function countSelection(db: Db, selection: Selection): Promise<number> {
  const { rows } = await db.executeSql(
    `SELECT count(*)::int AS n FROM companies c
     WHERE ($1::text IS NULL OR c.domain = ANY(string_to_array($1::text, ',')))
       AND ($2::uuid IS NULL OR c.category_id = $2::uuid)
       AND ($3::text IS NULL OR c.source::text = $3::text)
       AND ($4::timestamptz IS NULL OR c.scanned_at IS NULL OR c.scanned_at < $4::timestamptz)`,
    [selection.domains ? selection.domains.join(',') : null, selection.categoryId ?? null, selection.source ?? null, selection.scannedBefore ?? null],
  );
  return Number((rows[0] as { n: number }).n);
}

/** The given domains that name no company. */
export async function unknownDomains(db: Db, domains: string[]): Promise<string[]> {
  const { rows } = await db.executeSql(
    `SELECT d FROM unnest(string_to_array($1::text, ',')) AS d WHERE NOT EXISTS (SELECT 1 FROM companies c WHERE c.domain = d) ORDER BY d`,
    [domains.join(',')],
  );
  return (rows as Array<{ d: string }>).map((r) => r.d);
}

export async function addCompany(
  db: Db,
  c: { domain: string; name: string; website: string; categoryId: string | null; source: CompanySource },
): Promise<{ id: string } | null> {
  const { rows } = await db.executeSql(
    `INSERT INTO companies (id, name, website, domain, category_id, source, updated_at)
     VALUES (gen_random_uuid(), $1::text, $2::text, $3::varchar, $4::uuid, $5::"CompanySource", now())
     ON CONFLICT (domain) DO NOTHING RETURNING id::text AS id`,
    [c.name, c.website, c.domain, c.categoryId, c.source],
  );
  return (rows[0] as { id: string } | undefined) ?? null;
}

/**
 * Deletes the companies; their scans stay readable by scan id (scans.company_id is ON DELETE SET NULL), their score
 * history and journeys go with them (ON DELETE CASCADE). Returns the domains removed.
 */
export async function removeCompanies(db: Db, domains: string[]): Promise<string[]> {
  const { rows } = await db.executeSql(
    `DELETE FROM companies WHERE domain = ANY(string_to_array($1::text, ',')) RETURNING domain`,
    [domains.join(',')],
  );
  return (rows as Array<{ domain: string }>).map((r) => r.domain).sort();
}

/** Renames a company; the ids of the companies whose row changed (none when the name was already that). */
export async function renameCompany(db: Db, domain: string, name: string): Promise<string[]> {
  const { rows } = await db.executeSql(
    `UPDATE companies SET name = $2::text, updated_at = now() WHERE domain = $1::varchar AND name IS DISTINCT FROM $2::text RETURNING id::text AS id`,
    [domain, name],
  );
  return (rows as Array<{ id: string }>).map((r) => r.id);
}

/** Moves companies to a category (null: none); the ids of the companies whose row changed. */
export async function moveCompanies(db: Db, domains: string[], categoryId: string | null): Promise<string[]> {
  const { rows } = await db.executeSql(
    `UPDATE companies SET category_id = $2::uuid, updated_at = now()
     WHERE domain = ANY(string_to_array($1::text, ',')) AND category_id IS DISTINCT FROM $2::uuid RETURNING id::text AS id`,
    [domains.join(','), categoryId],
  );
  return (rows as Array<{ id: string }>).map((r) => r.id);
}
