#!/usr/bin/env node
// npm run contract:changelog -- [--base REF] [--root DIR] [--out FILE]
// Prepends the entry for the current versions of openapi/*.yaml to packages/client/CHANGELOG.md
// (contract-gate/changelog.js); an entry for the same versions on top is replaced.
//   --base REF  compare with REF instead of each document's previous version
//   --root DIR  the repository (default: the one holding the current folder)
//   --out FILE  the changelog to write (default: packages/client/CHANGELOG.md of the repository)
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const git = require('./contract-gate/git');
const { buildEntry, prepend } = require('./contract-gate/changelog');
const { listDocuments } = require('./contract-gate/gate');
const { Snapshots } = require('./contract-gate/snapshot');

const USAGE = 'usage: npm run contract:changelog -- [--base REF] [--root DIR] [--out FILE]';

async function main() {
  let args;
  try {
    args = parseArgs({
      options: { base: { type: 'string' }, root: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }).values;
  } catch (err) {
    process.stderr.write(`${err.message}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const from = args.root || process.cwd();
  const root = git.topLevel(from) || from;
  const out = path.resolve(root, args.out || 'packages/client/CHANGELOG.md');
  const snapshots = new Snapshots(root);
  try {
    const entry = await buildEntry({ root, docs: listDocuments(root), baseRef: args.base || null, snapshots });
    const existing = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : null;
    fs.writeFileSync(out, prepend(existing, entry));
    process.stdout.write(`contract changelog: ${path.relative(root, out)}: ${entry.text.split('\n')[0].replace(/^## /, '')}\n`);
    return 0;
  } finally {
    snapshots.dispose();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`contract changelog: ${err && err.message ? err.message : err}\n`);
    process.exitCode = 1;
  },
);
