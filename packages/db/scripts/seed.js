#!/usr/bin/env node
// npm run db:seed: applies pending migrations, then seeds (configuration: see cli-config.js).
'use strict';

const { cliConfig, logger, run } = require('./cli-config');

run(async () => {
  const { createDb, migrate, seed } = require('../dist/index.js');
  const config = cliConfig();
  const db = await createDb({ ...config, logger });
  try {
    await migrate(db);
    const result = await seed(db, { seedFile: config.seedFile, logger });
    if (!result.seeded) console.log('categories/companies already present: nothing seeded');
  } finally {
    await db.close();
  }
});
