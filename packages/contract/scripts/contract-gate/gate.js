'use strict';
// The breaking-change gate (`npm run contract:diff`, run by .ci/run before the tests): every openapi/*.yaml of the
// work tree is compared with its last release point (releases.js) and the changes are printed, classified. A
// document fails when it has a breaking change and its info.version was not bumped past what `^<released version>`
// accepts (versions.js); non-breaking changes never need a bump. Exit code 0 when every document is fine or could not
// be compared (the reason is printed), 1 when one breaks its consumers without the bump, 2 on a usage error.

const fs = require('node:fs');
const path = require('node:path');
const git = require('./git');
const { compareDocuments } = require('./compare');
const { findGateBase } = require('./releases');
const { Snapshots } = require('./snapshot');
const { judgeBump, nextBreakingVersion, readInfoVersion } = require('./versions');

const PREFIX = 'contract gate:';

/** The contract documents: every openapi/*.yaml (or .yml) at the top of the folder, in name order. */
function listDocuments(root) {
  const dir = path.join(root, 'openapi');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => `openapi/${name}`);
}

/**
 * Compares the work tree's `doc` with the same document at `commit`.
 * Returns { baseVersion, headVersion, newDocument } and, unless new, the classified changes of compare.js.
 */
async function compareWithCommit(root, doc, commit, snapshots) {
  const baseText = git.fileAt(root, commit, doc);
  const headVersion = readInfoVersion(fs.readFileSync(path.join(root, doc), 'utf8'));
  if (baseText === null) return { newDocument: true, baseVersion: null, headVersion };
  // Nothing under the document or the shared components differs: no need to spend Optic's 10-20 s on it.
  const unchanged = git.gitOrNull(root, ['diff', '--quiet', commit, '--', doc, 'openapi/components']) !== null;
  const changes = unchanged
    ? { breaking: [], nonBreaking: [], documentation: 0 }
    : await compareDocuments(path.join(snapshots.at(commit), doc), path.join(root, doc));
  return { ...changes, newDocument: false, baseVersion: readInfoVersion(baseText), headVersion };
}

/** The verdict for one compared document: { ok, line }. */
function verdict(result) {
  const { breaking, baseVersion, headVersion } = result;
  const bump = judgeBump(baseVersion, headVersion);
  const n = breaking.length;
  const changes = `${n} breaking change${n === 1 ? '' : 's'}`;
  if (n === 0) {
    return { ok: true, line: bump.changed ? `ok: no breaking change (info.version ${baseVersion} -> ${headVersion})` : 'ok: no breaking change' };
  }
  if (bump.kind === 'breaking') {
    return { ok: true, line: `ok: ${changes}, allowed by the bump of info.version ${baseVersion} -> ${headVersion}` };
  }
  const next = nextBreakingVersion(baseVersion);
  const how =
    `bump info.version to ${next} or higher (a version ^${baseVersion} does not accept` +
    `${next.startsWith('0.') ? ', e.g. 1.0.0' : ''}) and write the entry with npm run contract:changelog, or undo the change`;
  const state = {
    same: `info.version is still ${headVersion}`,
    compatible: `info.version ${baseVersion} -> ${headVersion} is a bump ^${baseVersion} still accepts`,
    lower: `info.version went down (${baseVersion} -> ${headVersion})`,
    unreadable: `info.version ${baseVersion} -> ${headVersion} is not MAJOR.MINOR.PATCH, so the gate cannot tell a major bump`,
  }[bump.kind];
  return { ok: false, line: `FAIL: ${changes} and ${state}; ${how}` };
}

function printChanges(out, result) {
  const { breaking, nonBreaking, documentation } = result;
  if (breaking.length) {
    out(`  breaking (${breaking.length}):`);
    for (const b of breaking) out(`    - ${b.where}: ${b.message} [${b.rule}]`);
  }
  if (nonBreaking.length) {
    out(`  non-breaking (${nonBreaking.length}):`);
    for (const c of nonBreaking) out(`    - ${c.where}: ${c.what}`);
  }
  if (documentation) out(`  documentation only: ${documentation} change${documentation === 1 ? '' : 's'} (descriptions, summaries, titles, examples; not listed)`);
  if (!breaking.length && !nonBreaking.length && !documentation) out('  no change');
}

/**
 * Runs the gate over `root` (a git work tree). `baseRef` replaces the release-point rule for every document.
 * `out` receives each line. Resolves to the exit code.
 */
async function runGate({ root, baseRef = null, out = (line) => process.stdout.write(`${line}\n`) }) {
  const docs = listDocuments(root);
  out(`${PREFIX} ${docs.join(', ') || 'no openapi/*.yaml'} against ${baseRef ? `--base ${baseRef}` : 'their last release'} (how to read this: packages/contract/README.md)`);
  if (!docs.length) return 0;
  if (!git.topLevel(root)) {
    out(`${PREFIX} skipped: ${root} is not a git work tree, so there is no earlier release to compare with`);
    return 0;
  }
  let fixed = null;
  if (baseRef) {
    fixed = git.commitOf(root, baseRef);
    if (!fixed) {
      out(`${PREFIX} --base ${baseRef} names no commit in this repository`);
      return 2;
    }
  }

  const snapshots = new Snapshots(root);
  const failed = [];
  let compared = 0;
  try {
    for (const doc of docs) {
      const base = fixed ? { commit: fixed, why: `--base ${baseRef}`, checked: 'the work tree' } : findGateBase(root, doc);
      if (base.skip) {
        out(`${PREFIX} ${doc}: not compared: ${base.skip}`);
        continue;
      }
      const result = await compareWithCommit(root, doc, base.commit, snapshots);
      const at = `${git.shortHash(root, base.commit)} (${git.commitDate(root, base.commit)}, ${base.why})`;
      if (result.newDocument) {
        out(`${PREFIX} ${doc} ${result.headVersion}: new since ${at}: nothing to break`);
        continue;
      }
      compared += 1;
      out(`${PREFIX} ${doc}: ${base.checked} (info.version ${result.headVersion}) against ${at.replace('(', `(info.version ${result.baseVersion}, `)}`);
      printChanges(out, result);
      const v = verdict(result);
      out(`  ${v.line}`);
      if (!v.ok) failed.push(doc);
    }
  } finally {
    snapshots.dispose();
  }
  if (failed.length) {
    out(`${PREFIX} FAILED: ${failed.join(', ')} ${failed.length === 1 ? 'breaks its' : 'break their'} consumers without a major version bump`);
    return 1;
  }
  out(`${PREFIX} ok (${compared} of ${docs.length} document${docs.length === 1 ? '' : 's'} compared)`);
  return 0;
}

module.exports = { runGate, listDocuments, compareWithCommit, verdict, PREFIX };
