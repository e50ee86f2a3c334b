// The company read's copy of a scan's layers and checks (scans/detail.ts): written when the scan ends, equal to its
// rows aggregated; a scan stored before the column existed (NULL) reads the same; the migration's backfill writes
// the same text the scan's end writes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startScanTestServer, type ScanTestServer } from './support/scan-harness';
import { scanDetailSql } from '../src/scans/detail';

let t: ScanTestServer;
let scanId: string;
let domain: string;
beforeAll(async () => {
  t = await startScanTestServer({ latencyMs: 0 });
  const started = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf('typical-saas') } });
  const scan = await t.waitForEnd(started.data!.scan.id);
  expect(scan.ending).toBe('finished');
  scanId = scan.id;
  domain = scan.domain;
});
afterAll(() => t.close());

const detailOf = async (id: string): Promise<string | null> =>
  (await t.db.executeSql('SELECT detail FROM scans WHERE id = $1::uuid', [id])).rows[0].detail as string | null;

const readCompany = async () => {
  const res = await fetch(`${t.leaderboardUrl}/v1/leaderboard/companies/${domain}?community=include`);
  expect(res.status).toBe(200);
  return (await res.json()) as { layers: unknown[]; checks: Array<{ id: string }> };
};

test("a scan's end writes its detail: its layers and checks in position order, as the rows hold them", async () => {
  const detail = await detailOf(scanId);
  expect(detail).not.toBeNull();
  const aggregated = (await t.db.executeSql(`SELECT ${scanDetailSql('$1::uuid')} AS d`, [scanId])).rows[0].d as string;
  expect(JSON.parse(detail!)).toEqual(JSON.parse(aggregated));
  const parsed = JSON.parse(detail!) as { layers: Array<{ layer: string }>; checks: Array<{ checkId: string }> };
  expect(parsed.layers.map((l) => l.layer)).toEqual(['discovery', 'access', 'usability', 'payments']);
  const rows = await t.db.prisma.checkResult.findMany({ where: { scanId }, orderBy: { position: 'asc' }, select: { checkId: true } });
  expect(parsed.checks.map((c) => c.checkId)).toEqual(rows.map((r) => r.checkId));
});

test('a scan without a stored detail (stored before the column existed) reads the same, and the backfill restores it', async () => {
  const before = await readCompany();
  expect(before.checks.length).toBeGreaterThan(40);
  const written = await detailOf(scanId);
  await t.db.executeSql('UPDATE scans SET detail = NULL WHERE id = $1::uuid', [scanId]);
  await t.runtime.changes.publish(); // drops cached answers
  expect(await readCompany()).toEqual(before);

  const migrations = path.resolve(__dirname, '../../../prisma/migrations');
  const dir = fs.readdirSync(migrations).find((d) => d.endsWith('_scan_detail'))!;
  const sql = fs.readFileSync(path.join(migrations, dir, 'migration.sql'), 'utf8');
  const backfill = sql.slice(sql.indexOf('UPDATE "scans"'));
  await t.db.executeSql(backfill);
  expect(await detailOf(scanId)).toBe(written);
});
