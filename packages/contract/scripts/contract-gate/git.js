'use strict';
// Read-only git for the contract gate: every call names the repository it reads and none writes to the index, the
// work tree or the refs, so the gate can run in a work tree other people are editing.

const { execFileSync } = require('node:child_process');

const MAX_OUTPUT = 256 * 1024 * 1024;

/** Runs git in `root` and returns its standard output (untrimmed: file contents are returned byte for byte). */
function gitRaw(root, args) {
  return execFileSync('git', args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: MAX_OUTPUT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Like gitRaw, trimmed; null instead of an exception when git answers non-zero (a missing ref, file or repository). */
function gitOrNull(root, args) {
  try {
    return gitRaw(root, args).trim();
  } catch {
    return null;
  }
}

function lines(text) {
  return text ? text.split('\n').filter(Boolean) : [];
}

/** The repository's top folder seen from `dir`, or null when `dir` is not inside a git work tree. */
function topLevel(dir) {
  return gitOrNull(dir, ['rev-parse', '--show-toplevel']);
}

function isShallow(root) {
  return gitOrNull(root, ['rev-parse', '--is-shallow-repository']) === 'true';
}

/** The full hash of a commit-ish, or null when it does not name a commit here. */
function commitOf(root, ref) {
  return gitOrNull(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
}

function parentsOf(root, commit) {
  return lines(gitOrNull(root, ['rev-list', '--parents', '-n', '1', commit])).flatMap((l) => l.split(' ').slice(1));
}

/** True when `ancestor` is `descendant` or one of its ancestors. */
function isAncestor(root, ancestor, descendant) {
  try {
    execFileSync('git', ['merge-base', '--is-ancestor', ancestor, descendant], { cwd: root, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A file's text at a commit, or null when the commit has no such file. */
function fileAt(root, commit, file) {
  try {
    return gitRaw(root, ['show', `${commit}:${file}`]);
  } catch {
    return null;
  }
}

/** Paths of the files under `dir` at a commit (recursively). */
function filesAt(root, commit, dir) {
  return lines(gitOrNull(root, ['ls-tree', '-r', '--name-only', commit, '--', dir]));
}

function shortHash(root, commit) {
  return gitOrNull(root, ['rev-parse', '--short', commit]) || commit.slice(0, 7);
}

function commitDate(root, commit) {
  return gitOrNull(root, ['show', '-s', '--format=%cs', commit]);
}

module.exports = {
  gitRaw,
  gitOrNull,
  lines,
  topLevel,
  isShallow,
  commitOf,
  parentsOf,
  isAncestor,
  fileAt,
  filesAt,
  shortHash,
  commitDate,
};
