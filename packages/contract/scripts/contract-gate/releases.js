'use strict';
// Which earlier state of a contract document the gate compares with: the document's last *release point*.
//
// A release point is any of:
// - a commit that changed the document's info.version (the commit that first added the document counts: it set the
//   first version);
// - a commit carrying a `contract-v*` tag;
// - the gate's baseline: the parent of the commit that added packages/contract/gate-baseline.json, i.e. the contract
//   as it stood when the gate arrived, taken as the release of its versions (the history before it was never gated
//   and has its breaking changes, listed in packages/client/CHANGELOG.md).
// The base is the newest release point among the ancestors of the state checked. The state checked is the work tree
// when openapi/ has uncommitted changes, else HEAD; when it is HEAD, HEAD itself is not a candidate, so a commit that
// bumps the version is compared with the release before it and its breaking changes are printed, allowed by the bump.

const fs = require('node:fs');
const path = require('node:path');
const git = require('./git');
const { readInfoVersion } = require('./versions');

const BASELINE_FILE = 'packages/contract/gate-baseline.json';
const TAG_PATTERN = 'contract-v*';

/** Where the search starts: the commits whose ancestors (themselves included) may be release points. */
function startPoints(root) {
  const head = git.commitOf(root, 'HEAD');
  if (!head) return { skip: 'the repository has no commit yet, so there is no earlier release to compare with' };
  const dirty = git.gitOrNull(root, ['status', '--porcelain', '--', 'openapi']);
  if (dirty) return { starts: [head], checked: 'the work tree' };
  const parents = git.parentsOf(root, head);
  if (!parents.length) {
    return { skip: `HEAD ${git.shortHash(root, head)} is the first commit, so there is no earlier release to compare with` };
  }
  return { starts: parents, checked: `HEAD ${git.shortHash(root, head)}` };
}

/** The newest of several release points: a descendant beats its ancestor; unrelated ones go by commit date. */
function newest(root, points) {
  return points.reduce((best, p) => {
    if (!best) return p;
    if (git.isAncestor(root, best.commit, p.commit)) return p;
    if (git.isAncestor(root, p.commit, best.commit)) return best;
    return (git.commitDate(root, p.commit) || '') > (git.commitDate(root, best.commit) || '') ? p : best;
  }, null);
}

/** The newest commit (reachable from `starts`) that changed info.version of `doc`, or that added `doc`. */
function lastVersionChange(root, starts, doc) {
  // -G narrows the walk to commits whose diff touches a `version:` line; each is then checked properly.
  const candidates = git.lines(git.gitOrNull(root, ['log', '--format=%H', '-G', 'version:', ...starts, '--', doc]));
  for (const commit of candidates) {
    const version = readInfoVersion(git.fileAt(root, commit, doc));
    const parents = git.parentsOf(root, commit);
    const parentVersions = parents.map((p) => readInfoVersion(git.fileAt(root, p, doc)));
    if (parentVersions.every((v) => v !== version)) {
      const added = parentVersions.every((v) => v === null);
      return {
        commit,
        kind: 'version',
        why: added ? `added the document at version ${version}` : `set info.version to ${version}`,
      };
    }
  }
  return null;
}

function lastTag(root, starts) {
  const tags = new Set(starts.flatMap((s) => git.lines(git.gitOrNull(root, ['tag', '--merged', s, '--list', TAG_PATTERN]))));
  const points = [...tags].map((tag) => ({ commit: git.commitOf(root, tag), kind: 'tag', why: `tagged ${tag}` }));
  return newest(root, points.filter((p) => p.commit));
}

/**
 * The gate's baseline: the contract as the gate found it, i.e. the first parent of the commit that added
 * gate-baseline.json. Found through the file's own history rather than a recorded hash, so it survives a rebase.
 */
function baseline(root) {
  if (!fs.existsSync(path.join(root, BASELINE_FILE))) return null;
  // Searched from HEAD, not from the start points: on the commit that adds the file, its parent is the start.
  const added = git.lines(git.gitOrNull(root, ['log', '--diff-filter=A', '--format=%H', 'HEAD', '--', BASELINE_FILE]))[0];
  const commit = added && git.parentsOf(root, added)[0];
  if (!commit) return null; // not committed yet, or added by the first commit: nothing was found before it
  return { commit, kind: 'baseline', why: `the gate's baseline, the parent of ${git.shortHash(root, added)} which added ${BASELINE_FILE}` };
}

/**
 * The release point `doc` (a path like openapi/leaderboard.yaml) is compared with, as
 * { commit, kind, why, checked } or { skip } when the history cannot tell.
 */
function findGateBase(root, doc) {
  if (git.isShallow(root)) {
    return {
      skip: 'this clone is shallow, so the last release of the contract is not in it (git fetch --unshallow, or pass --base REF)',
    };
  }
  const start = startPoints(root);
  if (start.skip) return { skip: start.skip };
  const points = [lastVersionChange(root, start.starts, doc), lastTag(root, start.starts), baseline(root)].filter(Boolean);
  const best = newest(root, points);
  if (!best) {
    return { skip: `no earlier commit has ${doc} and no release point was found` };
  }
  return { ...best, checked: start.checked };
}

/**
 * For the changelog: the last state of the version before the current one (the parent of the commit that set the
 * current version), or the document's first commit when the current version is its first.
 */
function findPreviousVersion(root, doc, currentVersion) {
  const head = git.commitOf(root, 'HEAD');
  if (!head) return null;
  const candidates = git.lines(git.gitOrNull(root, ['log', '--format=%H', '-G', 'version:', head, '--', doc]));
  for (const commit of candidates) {
    const version = readInfoVersion(git.fileAt(root, commit, doc));
    if (version !== currentVersion) {
      // The work tree moved the version and HEAD still has the previous one: HEAD is its last state.
      return { commit: head, version: readInfoVersion(git.fileAt(root, head, doc)), first: false };
    }
    const parent = git.parentsOf(root, commit)[0];
    const before = parent ? readInfoVersion(git.fileAt(root, parent, doc)) : null;
    if (before === currentVersion) continue;
    if (before === null) return { commit, version: currentVersion, first: true };
    return { commit: parent, version: before, first: false };
  }
  return null;
}

module.exports = { findGateBase, findPreviousVersion, BASELINE_FILE, TAG_PATTERN };
