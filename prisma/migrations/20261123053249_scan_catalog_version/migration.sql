-- AlterTable
ALTER TABLE "scans" ADD COLUMN     "catalog_version" VARCHAR(40);
