#!/usr/bin/env node
// npm run db:migration:create -- <name>   (root)   |   npm run migration:create -- <name>   (in packages/db)
// Writes prisma/migrations/<timestamp>_<name>/migration.sql from the difference between the existing migrations and
// prisma/schema.prisma. Offline: uses an in-memory PGlite and Prisma's WASM schema engine. Needs a build (dist).
'use strict';

const path = require('node:path');

async function main() {
  const name = process.argv[2];
  if (!name || name.startsWith('-')) {
    console.error('usage: npm run db:migration:create -- <name>');
    return 2;
  }
  const { createMigration } = require('../dist/create-migration.js');
  const { directory, sql } = await createMigration({ name });
  if (!directory) {
    console.log('no changes: prisma/schema.prisma matches the existing migrations');
    return 0;
  }
  const rel = path.relative(process.cwd(), path.join(directory, 'migration.sql'));
  console.log(`created ${rel} (${sql.split('\n').length} lines): review it before committing`);
  return 0;
}

main().then(
  (code) => process.exit(code), // the schema engine may leave timers behind: exit explicitly
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
