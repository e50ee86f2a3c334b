// What every entry point does before it opens the database: take DATA_DIR (embedded database only; with
// PostgreSQL, DATA_DIR holds only the mail outbox, which processes share safely) and say where the data lives.
import { pgliteDir, type Config } from '../config';
import { lockDataDir, type DataDirLock } from './data-dir-lock';

/** The lock on DATA_DIR when this process is to open the embedded database; null with PostgreSQL. */
export function claimDataDir(config: Pick<Config, 'databaseUrl' | 'dataDir'>): DataDirLock | null {
  return config.databaseUrl ? null : lockDataDir(config.dataDir);
}

/** Where this process keeps its data, for the start-up line (no credentials). */
export function storageOf(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'mail'>): { database: string; mail: string } {
  let database = `PGlite in ${pgliteDir(config)}`;
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    database = `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}${url.searchParams.get('schema') ? ` schema ${url.searchParams.get('schema')}` : ''}`;
  }
  let mail = `.eml files in ${config.dataDir}/outbox (no SMTP_URL)`;
  if (config.mail.smtpUrl) mail = `SMTP ${new URL(config.mail.smtpUrl).hostname}`;
  return { database, mail };
}
