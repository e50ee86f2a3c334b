// Node-only helpers of the contract (they read the file system): where the source documents and the built
// documents live. Browser code imports the package's main entry, which has no Node imports.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The package's own folder, found from this file whichever build (CommonJS or ESM folder) it was loaded from. */
function packageRoot(): string {
  let dir = __dirname;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === '@arl/contract') return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('@arl/contract: package.json not found above ' + __dirname);
    dir = parent;
  }
}

const root = packageRoot();
const openapiDir = path.resolve(root, '../../openapi');

/** The source documents (multi-file YAML) in the repository: what the server validates against. Workspace only. */
export const specPaths = {
  leaderboard: path.join(openapiDir, 'leaderboard.yaml'),
  feedback: path.join(openapiDir, 'feedback.yaml'),
} as const;

export type HostName = keyof typeof specPaths;

/** The built documents shipped in the package: one self-contained YAML and JSON per host, and its reference page. */
export function documentPaths(host: HostName): { yaml: string; json: string; html: string } {
  const dir = path.join(root, 'dist', 'openapi');
  return { yaml: path.join(dir, `${host}.yaml`), json: path.join(dir, `${host}.json`), html: path.join(dir, `${host}.html`) };
}
