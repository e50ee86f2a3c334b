// `npm run db:migrate` and `npm run db:seed`: the same configuration as `npm start` (DATABASE_URL or DATA_DIR,
// SEED_FILE), so the CLI and the server always touch the same database.
import { ConfigError, loadConfig, pgliteDir } from '../config';
import { claimDataDir } from '../lifecycle/claim';
import { createLogger, secretsOf } from '../logger';

const USAGE = `Usage: node dist/cli/db.js <migrate|seed>
  migrate   apply pending migrations from prisma/migrations
  seed      apply pending migrations, then seed categories, companies (first start only) and feedback projects
Configuration: DATABASE_URL, DATA_DIR, SEED_FILE (see the README).`;

async function main(command: string | undefined): Promise<number> {
  if (command !== 'migrate' && command !== 'seed') {
    process.stderr.write(`${USAGE}\n`);
    return command === '--help' || command === '-h' ? 0 : 2;
  }
  const config = loadConfig();
  claimDataDir(config); // the embedded database has one owner: refuse while the server runs (before loading it)
  const { createDb, migrate, seed } = require('@arl/db') as typeof import('@arl/db');
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, { secrets: secretsOf(config) });
  const db = await createDb({ databaseUrl: config.databaseUrl ?? undefined, dataDir: pgliteDir(config), logger });
  try {
    const where = db.kind === 'postgres' ? `PostgreSQL schema "${db.schema}"` : `PGlite in ${pgliteDir(config)}`;
    const { applied } = await migrate(db);
    process.stdout.write(applied.length ? `${where}: applied ${applied.join(', ')}\n` : `${where}: migrations up to date\n`);
    if (command === 'seed') {
      const result = await seed(db, { seedFile: config.seedFile ?? undefined, logger });
      process.stdout.write(
        result.seeded
          ? `seeded ${result.categories} categories and ${result.companies} companies\n`
          : 'categories and companies already present: nothing seeded\n',
      );
    }
    return 0;
  } finally {
    await db.close();
  }
}

main(process.argv[2]).then(
  // Explicit exit: the migration engine can leave a timer behind.
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
