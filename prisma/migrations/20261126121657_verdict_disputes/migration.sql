-- CreateTable
CREATE TABLE "verdict_disputes" (
    "id" UUID NOT NULL,
    "scan_id" UUID NOT NULL,
    "check_id" VARCHAR(100) NOT NULL,
    "check_name" TEXT NOT NULL,
    "domain" VARCHAR(253) NOT NULL,
    "disputed_status" VARCHAR(20) NOT NULL,
    "rescan_id" UUID,
    "rescan_error" TEXT,
    "state" VARCHAR(20),
    "rescan_status" VARCHAR(20),
    "outcome" TEXT,
    "resolved_at" TIMESTAMPTZ(3),
    "received_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "verdict_disputes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "verdict_disputes_domain_received_at_idx" ON "verdict_disputes"("domain", "received_at");

-- CreateIndex
CREATE INDEX "verdict_disputes_rescan_id_idx" ON "verdict_disputes"("rescan_id");

-- AddForeignKey
ALTER TABLE "verdict_disputes" ADD CONSTRAINT "verdict_disputes_id_fkey" FOREIGN KEY ("id") REFERENCES "feedback_reports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
