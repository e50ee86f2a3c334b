// Start-up configuration of the CLI scripts (migrate, seed): the only place in this package that reads the
// environment. The library itself takes everything as options.
//   DATABASE_URL      PostgreSQL connection string; when unset, the embedded PGlite database in DATA_DIR is used
//   DATA_DIR          PGlite data directory (default: <repo>/data/pglite), relative to where npm was invoked
//   DATABASE_SCHEMA   PostgreSQL schema (default: public, or ?schema= in DATABASE_URL)
//   SEED_FILE         seed: replacement categories/companies file (see packages/db/README.md)
'use strict';

const path = require('node:path');

function cliConfig(env = process.env) {
  const base = env.INIT_CWD || process.cwd();
  const repoRoot = path.resolve(__dirname, '../../..');
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR ? path.resolve(base, env.DATA_DIR) : path.join(repoRoot, 'data', 'pglite'),
    schema: env.DATABASE_SCHEMA || undefined,
    seedFile: env.SEED_FILE ? path.resolve(base, env.SEED_FILE) : undefined,
  };
}

const logger = {
  info: (obj, msg) => console.log(typeof obj === 'string' ? obj : msg ?? JSON.stringify(obj)),
  warn: (obj, msg) => console.warn(typeof obj === 'string' ? obj : msg ?? JSON.stringify(obj)),
  error: (obj, msg) => console.error(typeof obj === 'string' ? obj : msg ?? JSON.stringify(obj)),
};

/** Runs main() and exits explicitly (the schema engine may leave timers behind). */
function run(main) {
  main().then(
    (code) => process.exit(code ?? 0),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}

module.exports = { cliConfig, logger, run };
