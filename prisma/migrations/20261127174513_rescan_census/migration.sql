-- DropIndex
DROP INDEX "jobs_state_kind_run_at_idx";

-- AlterTable
ALTER TABLE "companies" ADD COLUMN     "next_scan_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Companies scanned before this migration are due one default interval (7 days) after their last scan, less up to
-- a tenth drawn per company, so a population scanned together does not stay in lockstep
UPDATE "companies" SET "next_scan_at" = "scanned_at" + interval '7 days' * (1 - random() * 0.1) WHERE "scanned_at" IS NOT NULL;

-- CreateTable
CREATE TABLE "rescan_pace" (
    "id" INTEGER NOT NULL,
    "budget" DOUBLE PRECISION NOT NULL,
    "first_wave" DOUBLE PRECISION NOT NULL,
    "ticked_at" TIMESTAMPTZ(3) NOT NULL,
    "curated" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rescan_pace_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scan_ip_turns" (
    "ip" VARCHAR(45) NOT NULL,
    "last_started_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "scan_ip_turns_pkey" PRIMARY KEY ("ip")
);

-- CreateIndex
CREATE INDEX "companies_source_next_scan_at_idx" ON "companies"("source", "next_scan_at");

-- CreateIndex
CREATE INDEX "companies_source_scanned_at_next_scan_at_idx" ON "companies"("source", "scanned_at", "next_scan_at");

-- CreateIndex
CREATE INDEX "jobs_state_kind_run_at_created_at_idx" ON "jobs"("state", "kind", "run_at", "created_at");

-- CreateIndex
CREATE INDEX "scans_domain_state_idx" ON "scans"("domain", "state");

-- CreateIndex
CREATE INDEX "scans_ended_at_idx" ON "scans"("ended_at");
