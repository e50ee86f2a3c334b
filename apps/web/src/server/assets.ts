// The files Vite built for the browser, read once at start-up and served from memory with a year of caching (their
// names carry a content hash). The manifest names the entry's script and style sheet for each page's <head>.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface Asset {
  body: Buffer;
  type: 'text/javascript' | 'text/css';
}

export interface BuiltAssets {
  /** URLs of the entry's script and style sheets, for the page's <head>. */
  script: string;
  styles: string[];
  get(file: string): Asset | undefined;
  /** Every file, for the size report of the benchmark. */
  files(): Array<{ name: string; asset: Asset }>;
}

const ENTRY = 'src/browser/main.tsx';

export function loadAssets(dir: string = path.join(__dirname, '..', '..', 'client')): BuiltAssets {
  const manifestPath = path.join(dir, '.vite', 'manifest.json');
  let manifest: Record<string, { file: string; css?: string[]; imports?: string[] }>;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  } catch {
    throw new Error(`${manifestPath} is missing: build the web app first (npm run build)`);
  }
  const entry = manifest[ENTRY];
  if (!entry) throw new Error(`${manifestPath} has no entry ${ENTRY}`);
  const files = new Map<string, Asset>();
  const assetsDir = path.join(dir, 'assets');
  for (const name of fs.readdirSync(assetsDir)) {
    if (name.endsWith('.js')) files.set(name, { body: fs.readFileSync(path.join(assetsDir, name)), type: 'text/javascript' });
    else if (name.endsWith('.css')) files.set(name, { body: fs.readFileSync(path.join(assetsDir, name)), type: 'text/css' });
  }
  return {
    script: `/${entry.file}`,
    styles: (entry.css ?? []).map((f) => `/${f}`),
    get: (file) => files.get(file),
    files: () => [...files.entries()].map(([name, asset]) => ({ name, asset })),
  };
}
