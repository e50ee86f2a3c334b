// A scan's layers and checks as one JSON text ({layers, checks}, each in position order): what the company read
// answers from. Written with the rows when the scan ends (they never change afterwards), so a read takes one column
// instead of aggregating ~50 rows; the same expression fills it in for scans stored before the column existed.
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
