'use strict';
// info.version of a contract document and the bump rule of the gate.
//
// The rule is npm's caret: a breaking change needs a version that `^<released version>` does not accept, so a
// frontend that pinned `^1.4.0` is never handed it by accident. From 1.0.0 on that is a major bump (1.4.0 -> 2.0.0);
// below 1.0.0 the leftmost non-zero part is the "major" one, as semver's initial-development rule and npm's caret
// have it (0.3.2 -> 0.4.0, 0.0.3 -> 0.0.4; 1.0.0 always qualifies). Non-breaking changes need no bump at all.

const { optic } = require('./optic');

/**
 * info.version read from a document's text. A line scan of the top-level `info:` block first: the gate reads the
 * version of every commit that touched a document, and parsing a 200 KB YAML file each time would cost seconds.
 * Anything else (flow style, anchors) falls back to a real YAML parser.
 */
function readInfoVersion(text) {
  if (text == null) return null;
  const block = /^info:[ \t]*\r?\n((?:(?:[ \t]+[^\r\n]*|[ \t]*)\r?\n)*)/m.exec(text);
  if (block) {
    const indent = /^([ \t]+)\S/m.exec(block[1]);
    if (indent) {
      const line = new RegExp(`^${indent[1]}version:[ \\t]*(.*?)[ \\t]*(?:#.*)?\\r?$`, 'm').exec(block[1]);
      if (line) return unquote(line[1]);
    }
  }
  try {
    const doc = optic().yaml.load(text);
    const version = doc && doc.info && doc.info.version;
    return version == null ? null : String(version);
  } catch {
    return null;
  }
}

function unquote(value) {
  const quoted = /^(['"])(.*)\1$/.exec(value);
  return quoted ? quoted[2] : value;
}

/** [major, minor, patch] of a semantic version (a leading v and any pre-release or build suffix allowed), or null. */
function parseVersion(version) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+][0-9A-Za-z.+-]*)?$/.exec(String(version).trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function compareParts(a, b) {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** The parts a caret range keeps fixed: ^1.4.0 keeps [1], ^0.4.1 keeps [0, 4], ^0.0.3 keeps [0, 0, 3]. */
function caretKey([major, minor, patch]) {
  if (major > 0) return [major];
  if (minor > 0) return [0, minor];
  return [0, 0, patch];
}

/**
 * How `head` relates to `base`:
 * - `same`: not bumped; `lower`: moved backwards;
 * - `compatible`: higher but inside ^base (a minor or patch bump): enough for non-breaking changes only;
 * - `breaking`: higher and outside ^base: allows breaking changes;
 * - `unreadable`: one of them is not MAJOR.MINOR.PATCH, so the gate cannot tell (`changed` says whether it moved).
 */
function judgeBump(base, head) {
  if (String(base) === String(head)) return { kind: 'same', changed: false };
  const b = parseVersion(base);
  const h = parseVersion(head);
  if (!b || !h) return { kind: 'unreadable', changed: true };
  const order = compareParts(h, b);
  if (order < 0) return { kind: 'lower', changed: true };
  if (order === 0) return { kind: 'same', changed: true }; // only a pre-release or build suffix moved
  return { kind: caretKey(h).join('.') === caretKey(b).join('.') ? 'compatible' : 'breaking', changed: true };
}

/** The smallest version that allows breaking changes after `base`, for the hint the gate prints. */
function nextBreakingVersion(base) {
  const p = parseVersion(base);
  if (!p) return '1.0.0';
  const [major, minor, patch] = p;
  if (major > 0) return `${major + 1}.0.0`;
  if (minor > 0) return `0.${minor + 1}.0`;
  return `0.0.${patch + 1}`;
}

module.exports = { readInfoVersion, parseVersion, judgeBump, nextBreakingVersion };
