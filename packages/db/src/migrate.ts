import fs from 'node:fs';
import path from 'node:path';

import { internals, type Db, type Logger } from './db';
import { noFilters, withSchemaEngine, type MigrationList } from './engine';
import { defaultMigrationsDir } from './paths';

export interface MigrateOptions {
  /** Directory of `<timestamp>_<name>/migration.sql` folders. Default: the repository's prisma/migrations. */
  migrationsDir?: string;
  logger?: Logger;
}

export class MigrationError extends Error {
  /** Prisma error code when the engine gave one (e.g. P3009: a failed migration blocks later ones). */
  readonly code: string | undefined;
  constructor(message: string, code?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MigrationError';
    this.code = code;
  }
}

/** Reads a migrations directory into the engine's list shape, like the Prisma CLI does. */
export function readMigrationsDir(migrationsDir: string): MigrationList {
  const baseDir = path.resolve(migrationsDir);
  const lockPath = path.join(baseDir, 'migration_lock.toml');
  const entries = fs.existsSync(baseDir) ? fs.readdirSync(baseDir, { withFileTypes: true }) : [];
  const migrationDirectories = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const file = path.join(baseDir, name, 'migration.sql');
      let content: { tag: 'ok'; value: string } | { tag: 'error'; value: string };
      try {
        content = { tag: 'ok', value: fs.readFileSync(file, 'utf8') };
      } catch (err) {
        content = { tag: 'error', value: (err as Error).message };
      }
      return { path: name, migrationFile: { path: 'migration.sql', content } };
    });
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

/** Converts whatever the WASM engine threw into a MigrationError with a readable message. */
export function toMigrationError(err: unknown): MigrationError {
  const raw = err instanceof Error ? err.message : typeof err === 'string' ? err : JSON.stringify(err);
  let message = raw;
  // The engine's errors (SchemaConnectorError) carry the Prisma error code, e.g. P3009 or P3018.
  const ownCode = (err as { code?: unknown } | null)?.code;
  let code: string | undefined = typeof ownCode === 'string' && /^P\d{4}$/.test(ownCode) ? ownCode : undefined;
  try {
    const parsed = JSON.parse(raw) as { message?: string; error_code?: string; meta?: unknown };
    if (parsed && typeof parsed === 'object') {
      message = parsed.message ?? raw;
      code = parsed.error_code ?? code;
    }
  } catch {
    // not JSON: keep the plain message
  }
  return new MigrationError(`@arl/db: migration failed${code ? ` (${code})` : ''}: ${message}`, code, { cause: err });
}

/**
 * Applies the pending migrations with Prisma's WASM schema engine. The bookkeeping is the standard
 * `_prisma_migrations` table, so `prisma migrate deploy` and this function can be used interchangeably.
 * Idempotent; concurrent callers (several processes on one PostgreSQL) are serialized by the engine's advisory lock,
 * calls through the same Db by an in-process queue.
 */
export async function migrate(db: Db, options: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const inner = internals.get(db);
  if (!inner) throw new Error('@arl/db: migrate() needs a Db created by createDb()');
  const migrationsList = readMigrationsDir(options.migrationsDir ?? defaultMigrationsDir());
  const logger = options.logger ?? inner.logger;

  const run = async () => {
    const started = Date.now();
    try {
      const result = await withSchemaEngine(
        inner.engineFactory(),
        (engine) => engine.applyMigrations({ migrationsList, filters: noFilters }),
        { logger, decorate: inner.decorateEngineAdapter },
      ).catch((err) => {
        throw toMigrationError(err);
      });
      const applied = result.appliedMigrationNames;
      logger?.info(
        { applied, kind: db.kind, schema: db.schema, ms: Date.now() - started },
        applied.length ? `applied ${applied.length} migration(s)` : 'database schema is up to date',
      );
      return { applied };
    } finally {
      await inner.afterEngine?.();
    }
  };
  const next = inner.lock.then(run, run);
  inner.lock = next.catch(() => undefined);
  return next;
}
