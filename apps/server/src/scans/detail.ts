// A scan's layers and checks as one JSON text ({layers, checks}, each in position order): what the company read
// answers from. Written with the rows when the scan ends (they never change afterwards), so a read takes one column
// instead of aggregating ~50 rows; the same expression fills it in for scans stored before the column existed.
import type { ScanOutcome } from './results';

export interface LayerRow {
  layer: string;
  weight: number;
  score: number | null;
}

export interface CheckRow {
  checkId: string;
  name: string;
  layer: string;
  tier: string;
  label: string | null;
  bonus: boolean;
  status: string;
  earned: number;
  points: number;
}

/** A scan's detail as `scanDetailSql` answers it: keys in its order, rows in position order. */
export interface ScanDetail {
  layers: LayerRow[];
  checks: CheckRow[];
}

/**
 * The detail an ending writes (scans/results.ts inserts these very rows): its layers only beside checks, as the
 * ending writes no layer scores without a check result. The scan's end carries it (scan-ended.ts), so nobody reads
 * back what was just written.
 */
export function detailOf(outcome: Pick<ScanOutcome, 'checks' | 'layers'>): ScanDetail {
  if (outcome.checks.length === 0) return { layers: [], checks: [] };
  return {
    layers: outcome.layers.map((l) => ({ layer: l.id, weight: l.weight, score: l.score ?? null })),
    checks: outcome.checks.map((c) => ({
      checkId: c.id, name: c.name, layer: c.layer, tier: c.tier, label: c.label ?? null, bonus: c.bonus, status: c.status,
      earned: c.earned, points: c.points,
    })),
  };
}
export interface ScanDetailTables {
  layers: string;
  checks: string;
  /** The column of both tables naming the scan. */
  key: string;
}

const SCAN_ROWS: ScanDetailTables = { layers: 'layer_scores', checks: 'check_results', key: 'scan_id' };

/** A SQL expression (text) of the detail of the scan whose id is the SQL expression `scanId`. */
export function scanDetailSql(scanId: string, tables: ScanDetailTables = SCAN_ROWS): string {
  return `json_build_object(
    'layers', COALESCE((SELECT json_agg(json_build_object('layer', l.layer, 'weight', l.weight, 'score', l.score) ORDER BY l.position)
       FROM ${tables.layers} l WHERE l.${tables.key} = ${scanId}), '[]'::json),
    'checks', COALESCE((SELECT json_agg(json_build_object('checkId', r.check_id, 'name', r.name, 'layer', r.layer, 'tier', r.tier,
       'label', r.label, 'bonus', r.bonus, 'status', r.status, 'earned', r.earned, 'points', r.points) ORDER BY r.position)
       FROM ${tables.checks} r WHERE r.${tables.key} = ${scanId}), '[]'::json))::text`;
}
