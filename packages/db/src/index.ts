export { PrismaClient, Prisma } from './generated/prisma/client';
export * from './generated/prisma/enums';
export type {
  Category,
  Company,
  Scan,
  ScanEvent,
  CheckResult,
  LayerScore,
  ScoreHistory,
  Journey,
  FeedbackProject,
  FeedbackInvite,
  FeedbackReport,
  MailOutbox,
  RateLimitWindow,
} from './generated/prisma/client';

export { createDb, listenEmbedded, type Db, type DbOptions, type Logger } from './db';
export { migrate, MigrationError, type MigrateOptions } from './migrate';
export {
  seed,
  SeedFileError,
  loadSeedFile,
  loadDefaultSeed,
  type SeedOptions,
  type SeedResult,
  type SeedData,
  type SeedCategory,
  type SeedCompany,
} from './seed';
export { createTestDb, testSchemaName, type TestDb, type TestDbOptions } from './testing';
