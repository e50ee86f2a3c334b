#!/usr/bin/env node
// `npm test` of the server: the whole API suite on the embedded default (PGlite) always, then again on PostgreSQL
// when TEST_DATABASE_URL is set (CI sets it), so both storage paths are proven on every run.
// SERVER_TEST_DATABASES=pglite or =postgres runs one pass only: CI runs the PGlite pass on the machine's Node and the
// PostgreSQL pass on Node 24 (.ci/run), so each database and each Node sees the whole suite once within CI's time.
'use strict';

const { spawnSync } = require('node:child_process');

const jest = require.resolve('jest/bin/jest');
const args = process.argv.slice(2);
const { TEST_DATABASE_URL, ...withoutPostgres } = process.env;
const only = process.env.SERVER_TEST_DATABASES ?? 'both';
if (!['both', 'pglite', 'postgres'].includes(only)) {
  console.error(`SERVER_TEST_DATABASES must be both, pglite or postgres (got ${JSON.stringify(only)})`);
  process.exit(2);
}
if (only === 'postgres' && !TEST_DATABASE_URL) {
  console.error('SERVER_TEST_DATABASES=postgres needs TEST_DATABASE_URL (e.g. postgresql://postgres@127.0.0.1:5432/test)');
  process.exit(2);
}

function run(label, env, extra = []) {
  process.stdout.write(`\n== server suite on ${label}, Node ${process.version} ==\n`);
  const result = spawnSync(process.execPath, [jest, ...args, ...extra], { stdio: 'inherit', env });
  return result.status ?? 1;
}

// Suites that prove something other than storage run once, on the embedded pass (the browser test packs, installs,
// builds and drives Chromium: the database under the server changes nothing it proves; the README-command tests run
// `npm start` and the CLI as a user does, on the quick start's embedded database; the demo and the webhook kill -9
// test run the built server in a child on its own PGlite DATA_DIR; the generator's own tests touch no server; the OpenAPI lint runs Redocly on the YAML only).
// The fault suite starts a PostgreSQL cluster of its own whichever pass runs it: it runs once too.
const ONCE = ['client-in-browser', 'readme-commands', 'demo-watch', 'webhook-process', 'fuzz-generator', 'openapi-lint', 'fault-suite'];

let status = 0;
if (only !== 'postgres') status = run('PGlite (embedded)', withoutPostgres);
if (status === 0 && TEST_DATABASE_URL && only !== 'pglite') status = run('PostgreSQL (TEST_DATABASE_URL)', process.env, ['--testPathIgnorePatterns', ...ONCE]);
process.exit(status);
