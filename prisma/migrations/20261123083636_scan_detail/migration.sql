-- AlterTable
ALTER TABLE "scans" ADD COLUMN     "detail" TEXT;

-- Backfill: every scan with results gets the text its company read used to aggregate on each read
-- (see apps/server/src/scans/detail.ts, and reads of a scan left NULL still aggregate).
UPDATE "scans" s SET "detail" = json_build_object(
    'layers', COALESCE((SELECT json_agg(json_build_object('layer', l.layer, 'weight', l.weight, 'score', l.score) ORDER BY l.position)
       FROM "layer_scores" l WHERE l.scan_id = s.id), '[]'::json),
    'checks', COALESCE((SELECT json_agg(json_build_object('checkId', r.check_id, 'name', r.name, 'layer', r.layer, 'tier', r.tier,
       'label', r.label, 'bonus', r.bonus, 'status', r.status, 'earned', r.earned, 'points', r.points) ORDER BY r.position)
       FROM "check_results" r WHERE r.scan_id = s.id), '[]'::json))::text
WHERE EXISTS (SELECT 1 FROM "check_results" r WHERE r.scan_id = s.id);
