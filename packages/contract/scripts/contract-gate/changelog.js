'use strict';
// The entry of packages/client/CHANGELOG.md for the current versions of the contract documents, from the same
// comparison as the gate: each document against the last state of its previous version (or, for a first version,
// against the commit that added it), so the entry says what a frontend meets when it moves to these versions.

const fs = require('node:fs');
const path = require('node:path');
const git = require('./git');
const { compareWithCommit } = require('./gate');
const { findPreviousVersion } = require('./releases');
const { readInfoVersion } = require('./versions');

const HEADER = `# @arl/client changelog

What changed in the contract this client is typed from (\`openapi/leaderboard.yaml\`, \`openapi/feedback.yaml\`), newest
first, one entry per set of versions. Written by \`npm run contract:changelog\` from the same comparison as the CI gate
(\`npm run contract:diff\`, see [packages/contract/README.md](../contract/README.md)): **breaking** changes need a major
bump of the document's \`info.version\`; **non-breaking** ones (new paths, new optional fields, new responses) need none.
Running it again for the same versions replaces the top entry; prose added under an older entry is kept. The gate
arrived under 0.0.0, so the breaking changes listed there were made before anything checked them.
`;

const MARKER = /^<!-- contract-versions: (.*) -->$/m;

function markerFor(versions) {
  return `<!-- contract-versions: ${versions.map((v) => `${v.doc}@${v.version}`).join(' ')} -->`;
}

function list(title, items, line) {
  if (!items.length) return [];
  return [`${title} (${items.length}):`, '', ...items.map((item) => `- ${line(item)}`), ''];
}

function code(text) {
  return `\`${String(text).replace(/`/g, "'")}\``;
}

function section(root, { doc, version, previous, result, checked }) {
  const name = doc.replace(/^openapi\//, '');
  const lines = [`### ${name} ${version}`, ''];
  if (!previous) {
    lines.push('No earlier state of this document in the history: nothing to compare.', '');
    return lines;
  }
  const at = `${git.shortHash(root, previous.commit)}, ${git.commitDate(root, previous.commit)}`;
  lines.push(
    previous.first
      ? `First version (the document was added at ${version} in ${at}). What changed under it since then, up to ${checked}:`
      : `Since ${previous.version} (its last state: ${at}), up to ${checked}:`,
    '',
  );
  if (result.newDocument) return [...lines, 'A new document: everything in it is new.', ''];
  lines.push(
    ...list('**Breaking**', result.breaking, (b) => `${code(b.where)}: ${b.message}`),
    ...list('**Non-breaking**', result.nonBreaking, (c) => `${code(c.where)}: ${c.what}`),
  );
  if (result.documentation) lines.push(`Documentation only (descriptions, summaries, examples): ${result.documentation} changes.`, '');
  if (!result.breaking.length && !result.nonBreaking.length && !result.documentation) lines.push('No change.', '');
  return lines;
}

/**
 * Builds the entry for the current versions of `docs` (paths like openapi/leaderboard.yaml), each compared with
 * `baseRef` when given, else with its previous version. Resolves to { marker, text }.
 */
async function buildEntry({ root, docs, baseRef, snapshots, today = new Date().toISOString().slice(0, 10) }) {
  const fixed = baseRef ? git.commitOf(root, baseRef) : null;
  if (baseRef && !fixed) throw new Error(`--base ${baseRef} names no commit in this repository`);
  const dirty = git.gitOrNull(root, ['status', '--porcelain', '--', 'openapi']);
  const head = git.commitOf(root, 'HEAD');
  const checked = dirty || !head ? 'the work tree' : `${git.shortHash(root, head)}`;
  const sections = [];
  const versions = [];
  for (const doc of docs) {
    const version = readInfoVersion(fs.readFileSync(path.join(root, doc), 'utf8'));
    versions.push({ doc: doc.replace(/^openapi\/|\.ya?ml$/g, ''), version });
    const previous = fixed ? { commit: fixed, version: null, first: false } : findPreviousVersion(root, doc, version);
    if (previous && previous.version === null) previous.version = `--base ${baseRef}`;
    const result = previous ? await compareWithCommit(root, doc, previous.commit, snapshots) : null;
    sections.push(section(root, { doc, version, previous, result, checked }));
  }
  const marker = markerFor(versions);
  const title = `## ${versions.map((v) => `${v.doc} ${v.version}`).join(', ')} (${today})`;
  return { marker, text: [title, '', marker, '', ...sections.flat()].join('\n').replace(/\n+$/, '\n') };
}

/** `existing` (the file's text, or null) with `entry` on top; an entry for the same versions on top is replaced. */
function prepend(existing, entry) {
  const body = existing ? existing.slice(existing.search(/^## /m) === -1 ? existing.length : existing.search(/^## /m)) : '';
  const entries = body ? body.split(/^(?=## )/m) : [];
  if (entries.length) {
    const top = MARKER.exec(entries[0]);
    if (top && `<!-- contract-versions: ${top[1]} -->` === entry.marker) entries.shift();
  }
  return `${HEADER}\n${[entry.text, ...entries].map((e) => e.replace(/\n+$/, '\n')).join('\n')}`;
}

module.exports = { buildEntry, prepend, HEADER };
