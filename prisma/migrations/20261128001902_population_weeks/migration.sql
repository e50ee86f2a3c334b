-- CreateTable
CREATE TABLE "population_weeks" (
    "week_end" TIMESTAMPTZ(3) NOT NULL,
    "counts" JSONB NOT NULL,
    "epoch" BIGINT NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "population_weeks_pkey" PRIMARY KEY ("week_end")
);

-- CreateTable
CREATE TABLE "population_weeks_state" (
    "id" INTEGER NOT NULL,
    "epoch" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "population_weeks_state_pkey" PRIMARY KEY ("id")
);

-- The one state row.
INSERT INTO "population_weeks_state" ("id", "epoch") VALUES (1, 0);

-- A company moved to another category or source, or removed, changes every kept week (each company counts in its
-- current scope): the epoch moves first (its row lock orders this against a week being kept: weekly-series.ts keeps
-- a week only while it holds the same epoch FOR SHARE), then the kept weeks go. Named through the table's schema, so
-- the trigger works whatever the search_path (tests run one schema per suite).
CREATE FUNCTION "population_weeks_forget"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('UPDATE %I.population_weeks_state SET epoch = epoch + 1 WHERE id = 1', TG_TABLE_SCHEMA);
  EXECUTE format('DELETE FROM %I.population_weeks', TG_TABLE_SCHEMA);
  RETURN NULL;
END
$$;

CREATE TRIGGER "companies_moved_forget_weeks" AFTER UPDATE OF "category_id", "source" ON "companies"
  FOR EACH ROW WHEN (OLD."category_id" IS DISTINCT FROM NEW."category_id" OR OLD."source" IS DISTINCT FROM NEW."source")
  EXECUTE FUNCTION "population_weeks_forget"();

-- Once per statement: a prune removing thousands of companies forgets the weeks once.
CREATE TRIGGER "companies_removed_forget_weeks" AFTER DELETE ON "companies"
  FOR EACH STATEMENT EXECUTE FUNCTION "population_weeks_forget"();
