// Every database read of the leaderboard side, in one place.
import type { Db } from '@arl/db';
import { scanDetailSql, type ScanDetail } from '../scans/detail';
import type { ChangedRow } from './catch-up';
import { companyFactsQuery, SCORED_FROM, toCompanyFacts } from './company-facts';
import { WEEK_MS, type HistoryFacts, type HistoryRow } from './ranking';
import { anyCompanyOf, companyOf, SCORED_COLUMNS, storedFactsOf, type AnyCompany, type CompanyFacts, type ScoredCompany } from './scored-company';

export class LeaderboardRepository {
  /** `scoredBlocks`: table blocks per statement of the start-up load (tests make it small to cross ranges). */
  constructor(
    private readonly db: Db,
    private readonly options: { scoredBlocks?: number } = {},
  ) {}

  /**
   * Every scored company, read a range of the table's blocks at a time (the start-up load). Raw rows, not Prisma's
   * objects: at 1,000,000 companies Prisma's mapping held a second copy of every row and one category object per
   * company; a chunk at a time bounds what the load holds beside the result. Block ranges, not keyset pages by id:
   * a TID range is read sequentially, while walking the primary key fetched every row from a random block (2 s ->
   * 13 s of the database's time at 1,000,000). A row updated during the load can be read twice (kept once: the later
   * scan) or not at all (its version moved to a block already read); either way the change that updated it reaches
   * the loading index through the change feed (service.ts applies what it hears during a load).
   */
  async scoredCompanies(): Promise<ScoredCompany[]> {
    const byId = new Map<string, ScoredCompany>();
    const step = this.options.scoredBlocks ?? SCORED_BLOCKS;
    const { rows } = await this.db.executeSql(`SELECT (pg_relation_size('companies') / current_setting('block_size')::int)::int AS blocks`);
    const blocks = Number((rows[0] as { blocks: number }).blocks);
    // The last range is open-ended: rows appended meanwhile are read too.
    for (let from = 0; from === 0 || from < blocks; from += step) {
      const range = from + step < blocks ? `c.ctid >= '(${from},0)'::tid AND c.ctid < '(${from + step},0)'::tid` : `c.ctid >= '(${from},0)'::tid`;
      const { rows: chunk } = await this.db.executeSql(scoredSql(range));
      for (const r of chunk) {
        // The live index keeps one object per category (live-index.ts), so each row's own copy is short-lived.
        const company = companyOf(storedFactsOf(r));
        const seen = byId.get(company.id);
        if (!seen || seen.scannedAt.getTime() <= company.scannedAt.getTime()) byId.set(company.id, company);
      }
    }
    return [...byId.values()];
  }

  /** Every company operation 3 reads without `community=include` (curated), scanned or not: the pages a sitemap lists. */
  async curatedCompanyPages(limit: number): Promise<Array<{ domain: string; scannedAt: Date | null }>> {
    return this.db.prisma.company.findMany({ where: { source: 'curated' }, select: { domain: true, scannedAt: true }, orderBy: { domain: 'asc' }, take: limit });
  }

  /** Raw statements with times as epoch milliseconds: Prisma's raw rows cost a Date and its own objects per row (3 million rows at 1,000,000 companies). */
  async historyFacts(now: Date): Promise<HistoryFacts> {
    const boundary = new Date(now.getTime() - WEEK_MS).toISOString();
    const ms = (column: string) => `round(extract(epoch FROM ${column}) * 1000)::float8`;
    const [weekAgo, first, recent] = (await Promise.all([
      this.db.executeSql(
        `SELECT DISTINCT ON (company_id) company_id::text AS company_id, score, ${ms('recorded_at')} AS at
         FROM score_history WHERE recorded_at <= $1::timestamptz
         ORDER BY company_id, recorded_at DESC, id DESC`,
        [boundary],
      ),
      this.db.executeSql(`SELECT company_id::text AS company_id, ${ms('min(recorded_at)')} AS at FROM score_history GROUP BY company_id`),
      this.db.executeSql(
        `SELECT company_id::text AS company_id, score, ${ms('recorded_at')} AS at FROM score_history WHERE recorded_at > $1::timestamptz ORDER BY recorded_at, id`,
        [boundary],
      ),
    ])).map((r) => r.rows as Array<{ company_id: string; score: number; at: number }>);
    const rows = new Map<string, HistoryRow[]>();
    for (const r of recent) {
      let list = rows.get(r.company_id);
      if (!list) rows.set(r.company_id, (list = []));
      list.push([Number(r.score), Number(r.at)]);
    }
    return {
      weekAgo: new Map(weekAgo.map((r) => [r.company_id, { score: Number(r.score), recordedAt: new Date(Number(r.at)) }])),
      firstRecordedAt: new Map(first.map((r) => [r.company_id, new Date(Number(r.at))])),
      recent: rows,
    };
  }

  /** These companies' facts as the live index needs them (the scored ones only), in one statement. */
  async companyFacts(ids: string[], now: Date): Promise<CompanyFacts[]> {
    if (ids.length === 0) return [];
    const { sql, params } = companyFactsQuery(ids, now);
    const { rows } = await this.db.executeSql(sql, params);
    return rows.map(toCompanyFacts);
  }

  /** The highest company change version committed (catch-up.ts: the mark a load starts from). */
  async maxChangeVersion(): Promise<number> {
    const { rows } = await this.db.executeSql(`SELECT COALESCE(max(change_version), 0)::float8 AS v FROM companies`);
    return Number(rows[0].v);
  }

  /** Companies changed past `version`, by version (at most `limit` rows: a caller seeing `limit` rows reloads). */
  async changedSince(version: number, limit: number): Promise<ChangedRow[]> {
    const { rows } = await this.db.executeSql(
      `SELECT id::text AS id, change_version::float8 AS v FROM companies WHERE change_version > $1::bigint ORDER BY change_version LIMIT $2::int`,
      [version, limit],
    );
    return rows.map((r: { id: string; v: number }) => ({ id: r.id, version: Number(r.v) }));
  }

  /** The layers and checks of these scans (JSON text, see scans/detail.ts), for the in-memory copy. */
  async scanDetails(scanIds: string[]): Promise<Array<{ id: string; detail: string }>> {
    if (scanIds.length === 0) return [];
    const { rows } = await this.db.executeSql(
      `SELECT s.id::text AS id, COALESCE(s.detail, ${scanDetailSql('s.id')}) AS detail FROM scans s WHERE s.id = ANY(string_to_array($1, ',')::uuid[])`,
      [scanIds.join(',')],
    );
    return rows as Array<{ id: string; detail: string }>;
  }

  categories() {
    return this.db.prisma.category.findMany({ select: { id: true, name: true, slug: true }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
  }

  /**
   * One company with its latest scan's layers and checks, in ONE statement: the scan's detail column, written when
   * it ended (scans/detail.ts), or for a scan stored before that column, its rows aggregated to JSON inside the
   * database. (Prisma's nested include took four round trips and decoded every row on the event loop; with the
   * embedded database that work runs on the same thread as the HTTP server.)
   */
  async companyByDomain(domain: string): Promise<CompanyRead | null> {
    const { rows } = await this.db.executeSql(COMPANY_SQL, [domain]);
    const r = rows[0] as { scan_summary: string | null; detail: string | null } | undefined;
    if (!r) return null;
    const company = anyCompanyOf(r);
    return { company, latestScan: company.latestScanId ? { summary: r.scan_summary, ...(JSON.parse(r.detail!) as ScanDetail) } : null };
  }
}

export type { CheckRow, LayerRow } from '../scans/detail';

/** The company read's company (any company, scored or not) with its latest scan's summary, layers and checks. */
export interface CompanyRead {
  company: AnyCompany;
  latestScan: ({ summary: string | null } & ScanDetail) | null;
}

/** 16 MB of the table per statement (~75,000 of the bench's companies). */
const SCORED_BLOCKS = 2048;

// One range of the companies table's blocks (a TID range scan).
const scoredSql = (range: string) => `SELECT ${SCORED_COLUMNS} ${SCORED_FROM} AND ${range}`;

// The company read: any company, scored or not (the mapper keeps a never-scored company's NULLs), with its latest scan.
const COMPANY_SQL = `
  SELECT ${SCORED_COLUMNS}, s.summary AS scan_summary, COALESCE(s.detail, ${scanDetailSql('s.id')}) AS detail
  FROM companies c
  LEFT JOIN categories k ON k.id = c.category_id
  LEFT JOIN scans s ON s.id = c.latest_scan_id
  WHERE c.domain = $1`;
