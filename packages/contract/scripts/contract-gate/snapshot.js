'use strict';
// The openapi/ folder as it was at a commit, written to a temporary folder so that Optic resolves each document's
// $ref files (openapi/components/*.yaml) from that commit too. Read with git show: no checkout, the index and the
// work tree are never touched.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const git = require('./git');

class Snapshots {
  constructor(root) {
    this.root = root;
    this.dirs = new Map();
  }

  /** The folder holding `openapi/` at `commit` (written once per commit). */
  at(commit) {
    let dir = this.dirs.get(commit);
    if (dir) return dir;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-base-'));
    this.dirs.set(commit, dir);
    for (const file of git.filesAt(this.root, commit, 'openapi')) {
      const target = path.join(dir, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, git.fileAt(this.root, commit, file));
    }
    return dir;
  }

  dispose() {
    for (const dir of this.dirs.values()) fs.rmSync(dir, { recursive: true, force: true });
    this.dirs.clear();
  }
}

module.exports = { Snapshots };
