// Builds a Vite project with the workspace's pinned Vite (its JS API), as `vite build` would: node vite-build.mjs <root>.
// Run as its own process because Vite is an ES module (Jest runs CommonJS).
import { build } from 'vite';

const root = process.argv[2];
await build({ root, logLevel: 'warn', build: { outDir: 'dist', emptyOutDir: true } });
