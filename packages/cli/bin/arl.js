#!/usr/bin/env node
// The `arl` command. A committed file, not dist/main.js itself: npm links a package's bins when it installs it
// (`npm ci`), before any build has written dist/, and skips a bin whose file is missing, so `npx arl` found nothing.
// Before a build (or with a dependency's dist/ missing) it says what to run, in one line, instead of Node's
// "Cannot find module" stack.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const BUILD_HINT = 'arl is not built yet: run `npm run build` at the repository root (or `npx turbo run build --filter=@arl/cli`), then try again.';
const main = path.join(__dirname, '..', 'dist', 'main.js');

if (!fs.existsSync(main)) {
  process.stderr.write(`arl: ${BUILD_HINT}\n`);
  process.exitCode = 2;
} else {
  try {
    require(main);
  } catch (err) {
    // Loading failed before main could report anything: a module not built, or a bug at load time. One line either way.
    const missing = err && err.code === 'MODULE_NOT_FOUND';
    process.stderr.write(`arl: ${missing ? BUILD_HINT : `could not start (${String(err && err.message).split('\n')[0]})`}\n`);
    process.exitCode = 2;
  }
}
