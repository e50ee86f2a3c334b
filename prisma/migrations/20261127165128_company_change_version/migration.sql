-- Every change to a company row gets a new version from one sequence, whoever writes it (the end of a scan, the owner
-- CLI, an import, a test): API processes read the rows changed past the versions they have applied, so a change whose
-- notification was lost (PostgreSQL restarted, the LISTEN connection cut) is still found. Prisma Client ignores the
-- column (schema.prisma: @ignore); the trigger keeps it, so no writer can forget it.

-- AlterTable (an insert takes a version from the sequence of the BIGSERIAL, companies_change_version_seq)
ALTER TABLE "companies" ADD COLUMN     "change_version" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE INDEX "companies_change_version_idx" ON "companies"("change_version");

-- An update takes a new version. The sequence is named through the schema of the table so the trigger works whatever the
-- search_path (tests run one schema per suite).
CREATE FUNCTION "companies_bump_change_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_version := nextval(format('%I.companies_change_version_seq', TG_TABLE_SCHEMA));
  RETURN NEW;
END
$$;

CREATE TRIGGER "companies_change_version" BEFORE UPDATE ON "companies"
  FOR EACH ROW EXECUTE FUNCTION "companies_bump_change_version"();
