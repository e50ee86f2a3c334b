import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { defaultMigrationsDir } from '../src/paths';

/**
 * The PostgreSQL server for tests, when configured (CI always sets it). Suites that need it are registered only then,
 * so a run without PostgreSQL reports fewer tests instead of skipped ones.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const describeIfPostgres = (TEST_DATABASE_URL ? describe : () => undefined) as (name: string, fn: () => void) => void;

export const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `arl-db-${prefix}-`));
}

/** A copy of the repository's migrations directory that a test may add folders to. */
export function copyMigrations(): string {
  const dir = tempDir('migrations');
  fs.cpSync(defaultMigrationsDir(), dir, { recursive: true });
  return dir;
}

export function listMigrations(): string[] {
  return fs
    .readdirSync(defaultMigrationsDir(), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}
