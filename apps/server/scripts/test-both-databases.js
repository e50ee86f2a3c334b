#!/usr/bin/env node
// `npm test` of the server: the whole API suite on the embedded default (PGlite) always, then again on PostgreSQL
// when TEST_DATABASE_URL is set (CI sets it), so both storage paths are proven on every run.
'use strict';

const { spawnSync } = require('node:child_process');

const jest = require.resolve('jest/bin/jest');
const args = process.argv.slice(2);
const { TEST_DATABASE_URL, ...withoutPostgres } = process.env;

function run(label, env, extra = []) {
  process.stdout.write(`\n== server suite on ${label} ==\n`);
  const result = spawnSync(process.execPath, [jest, ...args, ...extra], { stdio: 'inherit', env });
  return result.status ?? 1;
}

// Suites that prove something other than storage run once, on the embedded pass (the browser test packs, installs,
// builds and drives Chromium: the database under the server changes nothing it proves; the README-command tests run
// `npm start` and the CLI as a user does, on the quick start's embedded database; the demo and the webhook kill -9
// test run the built server in a child on its own PGlite DATA_DIR).
const ONCE = ['client-in-browser', 'readme-commands', 'demo-watch', 'webhook-process'];

let status = run('PGlite (embedded)', withoutPostgres);
if (status === 0 && TEST_DATABASE_URL) status = run('PostgreSQL (TEST_DATABASE_URL)', process.env, ['--testPathIgnorePatterns', ...ONCE]);
process.exit(status);
