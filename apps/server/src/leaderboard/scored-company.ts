// A scored company's one shape: the table of its stored columns below is the only place a stored field of a
// leaderboard entry's company is written. The statement's columns, the row mapper (the start-up load, a scan's end and
// the catch-up all read through it), the facts a change carries, the company the index holds and the Prisma select
// the tests compare the load with all follow from it; the entry's `company` object takes the properties the
// contract's `Company` schema lists, in its order.
import { specPaths } from '@arl/contract/node';
import type { LeaderboardSchemas } from '@arl/contract';
import { OpenApiReader } from '../http/openapi-resolve';
import type { HistoryRow } from './ranking';

type Category = LeaderboardSchemas['Category'];
type EntryCompany = LeaderboardSchemas['LeaderboardEntry']['company'];

/**
 * One stored column: its SQL over `companies c`, whether it is read as a number, whether a company may lack it,
 * whether it is NULL for a company never scored.
 */
interface Column<T, Optional extends boolean = false, Scored extends boolean = false> {
  sql: string;
  number: boolean;
  /** Type only: a field companies built by hand (tests) may leave out. */
  optional?: Optional;
  /** NULL until the company is scored: every read but the company read's is of scored companies only (SCORED_FROM). */
  scored?: Scored;
  /** Type only. */
  type?: T;
}
const text = <T = string>(sql: string): Column<T> => ({ sql, number: false });
const num = (sql: string): Column<number> => ({ sql, number: true });
/** A field a company may lack (those built before it existed, by hand in tests): read like text. */
export const optional = <T>(sql: string): Column<T, true> => ({ sql, number: false });
/** A field every scored company has and a company never scored lacks (NULL). */
const scored = <T>(column: Column<T>): Column<T, false, true> => ({ ...column, scored: true });
const epochMs = (column: string) => `round(extract(epoch FROM ${column}) * 1000)::float8`;

/**
 * The stored fields of a scored company, by the name the Prisma model, the facts and the contract share (the
 * category, a join, is added to them below).
 */
const STORED = {
  id: text('c.id::text'),
  name: text('c.name'),
  website: text('c.website'),
  domain: text('c.domain'),
  source: text<'curated' | 'community'>('c.source::text'),
  score: scored(num('c.score')),
  grade: scored(text<LeaderboardSchemas['LeaderboardEntry']['grade']>('c.grade')),
  /** The company's own summary (the company read answers it). */
  summary: text<string | null>('c.summary'),
  /** ms since the epoch (the company the index holds has a Date). */
  scannedAt: scored(num(epochMs('c.scanned_at'))),
  /** Its latest scan, whose layers and checks the company read answers (see scan-details.ts). */
  latestScanId: text<string | null>('c.latest_scan_id::text'),
};

type Table = typeof STORED;
type ValueOf<K extends keyof Table> = Table[K] extends Column<infer T, boolean, boolean> ? T : never;
type OptionalKeys = { [K in keyof Table]: Table[K] extends Column<unknown, true, boolean> ? K : never }[keyof Table];
type ScoredKeys = { [K in keyof Table]: Table[K] extends Column<unknown, boolean, true> ? K : never }[keyof Table];
/** The stored fields as a row reads them (scannedAt in ms). */
export type StoredFields = { [K in Exclude<keyof Table, OptionalKeys>]: ValueOf<K> } & { [K in OptionalKeys]?: ValueOf<K> };

/** The facts of one company that the ranking needs: what a change carries (plain JSON). */
export type CompanyFacts = StoredFields & {
  category: Category | null;
  /** Its scores from the latest recorded at or before a week (and a day) ago on, oldest first. */
  history: HistoryRow[];
  /** When its first score was recorded (ms), null without history. */
  firstRecordedAt: number | null;
  /** The row's change version as read (catch-up.ts); absent in facts not read from the database. */
  changeVersion?: number;
};

/** A scored company as the live index holds it. */
export type ScoredCompany = Omit<StoredFields, 'scannedAt'> & { scannedAt: Date; category: Category | null };

/** Any company, scored or not, as the company read (operation 3) reads it: one never scored has null score, grade, scannedAt. */
export type AnyCompany = { [K in keyof ScoredCompany]: K extends ScoredKeys ? ScoredCompany[K] | null : ScoredCompany[K] };

const FIELDS = Object.keys(STORED) as Array<keyof Table>;
for (const field of FIELDS) if (!/^[A-Za-z]\w*$/.test(field)) throw new Error(`not a field name: ${field}`);

/** The company and category columns of a scored company (each stored field under its own name). */
export const SCORED_COLUMNS = [
  ...FIELDS.map((f) => `${STORED[f].sql} AS "${f}"`),
  'k.id::text AS category_id, k.name AS category_name, k.slug AS category_slug',
].join(', ');

// The mappers are compiled from the table once (checked names only, never input): one object literal each, so every
// company has the same compact shape (a million of them are held), and no loop over dynamic keys per row.

const read = (f: keyof Table) => (STORED[f].number ? `Number(r.${f})` : `r.${f}`);
const CATEGORY = 'category: r.category_id ? { id: r.category_id, name: r.category_name, slug: r.category_slug } : null';

/** A row of SCORED_COLUMNS as the facts hold it (without history). */
export const storedFactsOf = new Function('r', `return { ${FIELDS.map((f) => `${f}: ${read(f)}`).join(', ')}, ${CATEGORY} };`) as (
  row: unknown,
) => StoredFields & { category: Category | null };

/** The company the index holds for these facts (a change's, or a row's). */
export const companyOf = new Function(
  'f',
  `return { ${FIELDS.map((f) => (f === 'scannedAt' ? 'scannedAt: new Date(f.scannedAt)' : `${f}: f.${f}`)).join(', ')}, category: f.category };`,
) as (facts: StoredFields & { category: Category | null }) => ScoredCompany;

/**
 * A row of SCORED_COLUMNS as the company the company read answers, for any company: a scored field of one never
 * scored stays null (the mappers above, which see scored companies only, would make it 0 or 1970).
 */
export const anyCompanyOf = new Function(
  'r',
  `return { ${FIELDS.map((f) => {
    const value = f === 'scannedAt' ? `new Date(${read(f)})` : read(f);
    return `${f}: ${STORED[f].scored ? `r.${f} === null ? null : ${value}` : value}`;
  }).join(', ')}, ${CATEGORY} };`,
) as (row: unknown) => AnyCompany;

/** Prisma's select of the same fields (the tests compare the start-up load with it). */
export const SCORED_SELECT = {
  ...Object.fromEntries(FIELDS.map((f) => [f, true])),
  category: { select: { id: true, name: true, slug: true } },
} as { [K in keyof Table]: true } & { category: { select: { id: true; name: true; slug: true } } };

let pickCompany: ((company: ScoredCompany) => EntryCompany) | null = null;

/**
 * The entry's `company` object, frozen: the properties the contract's `Company` schema lists (the source document
 * the answers are validated against), in the schema's order, from the company.
 */
export function companyJsonOf(company: ScoredCompany): EntryCompany {
  return (pickCompany ??= compilePick())(company);
}

function compilePick(): (company: ScoredCompany) => EntryCompany {
  const schema = new OpenApiReader(specPaths.leaderboard).raw('/components/schemas/Company') as { properties: Record<string, unknown> };
  const known = new Set<string>([...FIELDS, 'category']);
  const names = Object.keys(schema.properties);
  // A property with no stored field behind it would be left out of every answer: say so at once.
  for (const name of names) if (!known.has(name)) throw new Error(`the contract's Company has ${name}, which no stored field of scored-company.ts holds`);
  return new Function('c', `return Object.freeze({ ${names.map((n) => `${n}: c.${n}`).join(', ')} });`) as (company: ScoredCompany) => EntryCompany;
}
