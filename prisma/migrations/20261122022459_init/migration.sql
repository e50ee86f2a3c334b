-- CreateEnum
CREATE TYPE "CompanySource" AS ENUM ('curated', 'community');

-- CreateEnum
CREATE TYPE "ScanState" AS ENUM ('waiting', 'running', 'scoring', 'ended');

-- CreateEnum
CREATE TYPE "ScanEnding" AS ENUM ('finished', 'failed', 'interrupted', 'sign_in_required');

-- CreateEnum
CREATE TYPE "JourneyState" AS ENUM ('waiting', 'running', 'ended');

-- CreateTable
CREATE TABLE "categories" (
    "id" UUID NOT NULL,
    "slug" VARCHAR(120) NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "companies" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "website" TEXT NOT NULL,
    "domain" VARCHAR(253) NOT NULL,
    "category_id" UUID,
    "source" "CompanySource" NOT NULL,
    "demo" BOOLEAN NOT NULL DEFAULT false,
    "score" INTEGER,
    "grade" VARCHAR(2),
    "summary" TEXT,
    "scanned_at" TIMESTAMPTZ(3),
    "latest_scan_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "companies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scans" (
    "id" UUID NOT NULL,
    "target" TEXT NOT NULL,
    "active_target" TEXT,
    "url" TEXT NOT NULL,
    "domain" VARCHAR(253) NOT NULL,
    "kind" VARCHAR(20),
    "state" "ScanState" NOT NULL DEFAULT 'waiting',
    "ending" "ScanEnding",
    "cause" TEXT,
    "score" INTEGER,
    "grade" VARCHAR(2),
    "summary" TEXT,
    "email" TEXT,
    "origin" VARCHAR(20) NOT NULL DEFAULT 'api',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "company_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "scans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scan_events" (
    "id" BIGSERIAL NOT NULL,
    "scan_id" UUID NOT NULL,
    "step" VARCHAR(64) NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "scan_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "check_results" (
    "scan_id" UUID NOT NULL,
    "check_id" VARCHAR(100) NOT NULL,
    "name" TEXT NOT NULL,
    "layer" VARCHAR(20) NOT NULL,
    "tier" VARCHAR(20) NOT NULL,
    "label" VARCHAR(20),
    "bonus" BOOLEAN NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "earned" DOUBLE PRECISION NOT NULL,
    "points" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "evidence" JSONB,
    "fix" TEXT,

    CONSTRAINT "check_results_pkey" PRIMARY KEY ("scan_id","check_id")
);

-- CreateTable
CREATE TABLE "layer_scores" (
    "scan_id" UUID NOT NULL,
    "layer" VARCHAR(20) NOT NULL,
    "weight" INTEGER NOT NULL,
    "score" INTEGER,
    "position" INTEGER NOT NULL,

    CONSTRAINT "layer_scores_pkey" PRIMARY KEY ("scan_id","layer")
);

-- CreateTable
CREATE TABLE "score_history" (
    "id" BIGSERIAL NOT NULL,
    "company_id" UUID NOT NULL,
    "scan_id" UUID,
    "score" INTEGER NOT NULL,
    "grade" VARCHAR(2) NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "score_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "journeys" (
    "id" UUID NOT NULL,
    "company_id" UUID NOT NULL,
    "active_company" UUID,
    "task" VARCHAR(40) NOT NULL,
    "state" "JourneyState" NOT NULL DEFAULT 'waiting',
    "outcome" VARCHAR(40),
    "driver" VARCHAR(20),
    "cause" TEXT,
    "start_url" TEXT,
    "steps" JSONB,
    "evidence" JSONB,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "duration_ms" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "journeys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "feedback_projects" (
    "id" UUID NOT NULL,
    "slug" VARCHAR(64) NOT NULL,
    "name" TEXT NOT NULL,
    "invitation" TEXT NOT NULL,
    "guidance" TEXT NOT NULL,
    "accepting" BOOLEAN NOT NULL DEFAULT true,
    "signed_only" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "feedback_projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "feedback_invites" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "note" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feedback_invites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "feedback_reports" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "content_hash" CHAR(64) NOT NULL,
    "body" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feedback_reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mail_outbox" (
    "id" UUID NOT NULL,
    "scan_id" UUID,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "status" VARCHAR(20) NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "mail_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_limit_windows" (
    "key" VARCHAR(200) NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("key","window_start")
);

-- CreateIndex
CREATE UNIQUE INDEX "categories_slug_key" ON "categories"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "companies_domain_key" ON "companies"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "companies_latest_scan_id_key" ON "companies"("latest_scan_id");

-- CreateIndex
CREATE INDEX "companies_category_id_idx" ON "companies"("category_id");

-- CreateIndex
CREATE INDEX "companies_score_idx" ON "companies"("score");

-- CreateIndex
CREATE UNIQUE INDEX "scans_active_target_key" ON "scans"("active_target");

-- CreateIndex
CREATE INDEX "scans_target_created_at_idx" ON "scans"("target", "created_at");

-- CreateIndex
CREATE INDEX "scans_state_idx" ON "scans"("state");

-- CreateIndex
CREATE INDEX "scan_events_scan_id_id_idx" ON "scan_events"("scan_id", "id");

-- CreateIndex
CREATE INDEX "score_history_company_id_recorded_at_idx" ON "score_history"("company_id", "recorded_at");

-- CreateIndex
CREATE INDEX "score_history_recorded_at_idx" ON "score_history"("recorded_at");

-- CreateIndex
CREATE UNIQUE INDEX "journeys_active_company_key" ON "journeys"("active_company");

-- CreateIndex
CREATE INDEX "journeys_company_id_created_at_idx" ON "journeys"("company_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "feedback_projects_slug_key" ON "feedback_projects"("slug");

-- CreateIndex
CREATE INDEX "feedback_invites_project_id_idx" ON "feedback_invites"("project_id");

-- CreateIndex
CREATE INDEX "feedback_reports_project_id_received_at_idx" ON "feedback_reports"("project_id", "received_at");

-- CreateIndex
CREATE UNIQUE INDEX "feedback_reports_project_id_content_hash_key" ON "feedback_reports"("project_id", "content_hash");

-- CreateIndex
CREATE INDEX "mail_outbox_status_next_attempt_at_idx" ON "mail_outbox"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "rate_limit_windows_expires_at_idx" ON "rate_limit_windows"("expires_at");

-- AddForeignKey
ALTER TABLE "companies" ADD CONSTRAINT "companies_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "companies" ADD CONSTRAINT "companies_latest_scan_id_fkey" FOREIGN KEY ("latest_scan_id") REFERENCES "scans"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scans" ADD CONSTRAINT "scans_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scan_events" ADD CONSTRAINT "scan_events_scan_id_fkey" FOREIGN KEY ("scan_id") REFERENCES "scans"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "check_results" ADD CONSTRAINT "check_results_scan_id_fkey" FOREIGN KEY ("scan_id") REFERENCES "scans"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "layer_scores" ADD CONSTRAINT "layer_scores_scan_id_fkey" FOREIGN KEY ("scan_id") REFERENCES "scans"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "score_history" ADD CONSTRAINT "score_history_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "journeys" ADD CONSTRAINT "journeys_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "feedback_invites" ADD CONSTRAINT "feedback_invites_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "feedback_projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "feedback_reports" ADD CONSTRAINT "feedback_reports_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "feedback_projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_scan_id_fkey" FOREIGN KEY ("scan_id") REFERENCES "scans"("id") ON DELETE SET NULL ON UPDATE CASCADE;
