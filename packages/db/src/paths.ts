import fs from 'node:fs';
import path from 'node:path';

/**
 * The directory of this package (packages/db), found by walking up from this file, so the same code works from
 * `src/` (ts-jest) and from `dist/` (compiled).
 */
export function packageDir(): string {
  let dir = __dirname;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        if (JSON.parse(fs.readFileSync(manifest, 'utf8')).name === '@arl/db') return dir;
      } catch {
        // not our manifest: keep walking
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(__dirname, '..');
    dir = parent;
  }
}

/** The repository's `prisma/` directory (schema.prisma, migrations/, seed/). */
export function prismaDir(): string {
  return path.resolve(packageDir(), '../../prisma');
}

export const defaultMigrationsDir = (): string => path.join(prismaDir(), 'migrations');
export const defaultSeedDir = (): string => path.join(prismaDir(), 'seed');
export const defaultSchemaFile = (): string => path.join(prismaDir(), 'schema.prisma');
