// Jest transformer for @electric-sql/pglite's CommonJS build (see jest-preset.js).
//
// PGlite's CJS bundle loads Node built-ins with dynamic `import("module")`, `import("fs")`, ... A dynamic import
// inside Jest's CommonJS sandbox throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG unless Node runs with
// --experimental-vm-modules. This rewrites those imports of built-ins into `require`, which is equivalent for them.
'use strict';

const crypto = require('node:crypto');

const BUILTIN_IMPORT = /\bimport\(\s*(["'])((?:node:)?[a-z_/]+)\1\s*\)/g;

module.exports = {
  process(source) {
    const code = source.replace(BUILTIN_IMPORT, (match, quote, name) =>
      require('node:module').isBuiltin(name) ? `Promise.resolve(__arlRequire(${quote}${name}${quote}))` : match,
    );
    // A separate name: the emscripten glue declares its own `var require` in the scopes that import "module".
    return { code: `var __arlRequire = require;${code}` };
  },
  getCacheKey(source, filename) {
    return crypto.createHash('sha256').update('arl-pglite-1\0').update(filename).update('\0').update(source).digest('hex');
  },
};
