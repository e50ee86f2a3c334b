// The browser bundle: one entry that hydrates whichever page the server rendered. Output goes to dist/client with a
// manifest, which the server reads to name the hashed files in each page's <head>. Nothing is loaded from elsewhere.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  publicDir: false,
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    sourcemap: false,
    rollupOptions: { input: 'src/browser/main.tsx' },
  },
});
