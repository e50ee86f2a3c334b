#!/usr/bin/env node
// The `arl` command. A committed file, not dist/main.js itself: npm links a package's bins when it installs it
// (`npm ci`), before any build has written dist/, and skips a bin whose file is missing, so `npx arl` found nothing.
require('../dist/main.js');
