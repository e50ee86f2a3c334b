-- AlterTable
ALTER TABLE "score_history" ADD COLUMN     "rank_all" INTEGER,
ADD COLUMN     "rank_curated" INTEGER;
