#!/usr/bin/env node
// Generates the Prisma client into src/generated/prisma, offline.
//
// The Prisma CLI refuses to start without a native schema engine binary, which it would try to download. `prisma
// generate` never runs that binary, so any existing file will do: we point PRISMA_SCHEMA_ENGINE_BINARY at the Node
// executable unless the caller set it.
//
// After generation we rewrite the generated client's dynamic `import()` calls into `require()`: TypeScript keeps
// `import()` as-is under `module: Node16`, and a real dynamic import fails inside Jest's CommonJS sandbox (every
// workspace's tests load this package's dist). The modules imported are CommonJS files, so `require` is equivalent.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const packageDir = path.resolve(__dirname, '..');
const schema = path.resolve(packageDir, '../../prisma/schema.prisma');
const outDir = path.join(packageDir, 'src/generated/prisma');

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !fs.existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
env.CHECKPOINT_DISABLE = '1';

const prismaCli = require.resolve('prisma/build/index.js', { paths: [packageDir] });
const result = spawnSync(process.execPath, [prismaCli, 'generate', '--schema', schema], {
  cwd: packageDir,
  env,
  stdio: 'inherit',
});
if (result.error) throw result.error;
if (result.status !== 0) process.exit(result.status ?? 1);

// Rewrite dynamic imports (see above).
let patched = 0;
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (entry.name.endsWith('.ts')) {
      const text = fs.readFileSync(file, 'utf8');
      const next = text.replace(/\bawait import\((["'][^"']+["'])\)/g, (_m, spec) => `require(${spec})`);
      if (next !== text) {
        fs.writeFileSync(file, next);
        patched += 1;
      }
    }
  }
};
walk(outDir);
if (patched === 0) {
  console.warn('generate: no dynamic import() found in the generated client; check the Prisma version');
}
