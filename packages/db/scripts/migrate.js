#!/usr/bin/env node
// npm run db:migrate: applies pending migrations from prisma/migrations (configuration: see cli-config.js).
'use strict';

const { cliConfig, logger, run } = require('./cli-config');

run(async () => {
  const { createDb, migrate } = require('../dist/index.js');
  const config = cliConfig();
  const db = await createDb({ ...config, logger });
  try {
    const where = db.kind === 'postgres' ? `PostgreSQL schema "${db.schema}"` : `PGlite in ${config.dataDir}`;
    const { applied } = await migrate(db);
    console.log(applied.length ? `${where}: applied ${applied.join(', ')}` : `${where}: already up to date`);
  } finally {
    await db.close();
  }
});
