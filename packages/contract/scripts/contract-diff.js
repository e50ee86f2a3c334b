#!/usr/bin/env node
// npm run contract:diff -- [--base REF] [--root DIR]
// The breaking-change gate over openapi/*.yaml (contract-gate/gate.js); .ci/run runs it before the tests.
//   --base REF  compare every document with REF instead of its last release point (a branch, tag or commit)
//   --root DIR  the repository to check (default: the one holding the current folder)
'use strict';

const { parseArgs } = require('node:util');
const git = require('./contract-gate/git');
const { runGate } = require('./contract-gate/gate');

const USAGE = 'usage: npm run contract:diff -- [--base REF] [--root DIR]';

async function main() {
  let args;
  try {
    args = parseArgs({ options: { base: { type: 'string' }, root: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (err) {
    process.stderr.write(`${err.message}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\nHow to read the output and how to bump: packages/contract/README.md\n`);
    return 0;
  }
  const from = args.root || process.cwd();
  const root = git.topLevel(from) || from;
  return runGate({ root, baseRef: args.base || null });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`contract gate: could not compare the contract: ${err && err.stack ? err.stack : err}\n`);
    process.exitCode = 2;
  },
);
