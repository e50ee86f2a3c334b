-- CreateTable
CREATE TABLE "jobs" (
    "id" UUID NOT NULL,
    "kind" VARCHAR(60) NOT NULL,
    "payload" JSONB NOT NULL,
    "state" VARCHAR(20) NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 1,
    "timeout_ms" INTEGER NOT NULL,
    "run_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_by" VARCHAR(100),
    "locked_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scan_recipients" (
    "scan_id" UUID NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scan_recipients_pkey" PRIMARY KEY ("scan_id","email")
);

-- CreateIndex
CREATE INDEX "jobs_state_kind_run_at_idx" ON "jobs"("state", "kind", "run_at");

-- CreateIndex
CREATE INDEX "jobs_state_locked_until_idx" ON "jobs"("state", "locked_until");

-- AddForeignKey
ALTER TABLE "scan_recipients" ADD CONSTRAINT "scan_recipients_scan_id_fkey" FOREIGN KEY ("scan_id") REFERENCES "scans"("id") ON DELETE CASCADE ON UPDATE CASCADE;
