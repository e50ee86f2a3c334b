/**
 * Loads Prisma's official WASM schema engine (@prisma/schema-engine-wasm) without the native binary and without
 * ES-module loading.
 *
 * The package is an ES module whose entry imports a `.wasm` file (bundler style), which neither CommonJS `require`
 * nor Jest's module sandbox can load. Its glue code (`schema_engine_bg.js`) is plain wasm-bindgen output with only
 * `export function` / `export class` declarations and no imports, so we evaluate it as a function body and
 * instantiate `schema_engine_bg.wasm` against it ourselves. Each call gets a fresh glue + instance (isolated state,
 * garbage-collected afterwards); the compiled WebAssembly.Module is cached.
 *
 * The glue's `setTimeout` is replaced by one that unrefs its timers: the engine leaves a ~10 s timer pending after
 * work, which would otherwise keep a CLI process (or Jest) alive.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

export interface SchemaFilter {
  externalTables: string[];
  externalEnums: string[];
}

export interface MigrationList {
  baseDir: string;
  lockfile: { path: string; content: string | null };
  shadowDbInitScript: string;
  migrationDirectories: Array<{
    path: string;
    migrationFile: { path: string; content: { tag: 'ok'; value: string } | { tag: 'error'; value: string } };
  }>;
}

type SchemaFiles = { files: Array<{ path: string; content: string }> };
export type DiffTarget =
  | { tag: 'empty' }
  | ({ tag: 'schemaDatasource'; configDir: string } & SchemaFiles)
  | ({ tag: 'schemaDatamodel' } & SchemaFiles)
  | ({ tag: 'migrations' } & MigrationList);

/** The subset of the engine's API this package uses (see schema_engine.d.ts in @prisma/schema-engine-wasm). */
export interface SchemaEngine {
  free(): void;
  applyMigrations(input: { migrationsList: MigrationList; filters: SchemaFilter }): Promise<{
    appliedMigrationNames: string[];
  }>;
  diff(params: {
    from: DiffTarget;
    to: DiffTarget;
    script: boolean;
    exitCode: boolean | null;
    filters: SchemaFilter;
  }): Promise<{ exitCode: number; stdout: string | null }>;
}

interface EngineModule {
  SchemaEngine: { new: (options: { datamodels: undefined }, log: (msg: string) => void, adapter: object) => Promise<SchemaEngine> };
  version(): string;
  __wbg_set_wasm(wasm: unknown): void;
}

// lib ES2023 without DOM has no WebAssembly typings; the runtime (Node 20) has it.
type WasmModule = object;
const WA = (globalThis as unknown as { WebAssembly: any }).WebAssembly;

export const noFilters: SchemaFilter = { externalTables: [], externalEnums: [] };

let compiled: { module: WasmModule; glueSource: string; exportNames: string[]; dir: string } | undefined;

function engineFiles() {
  if (compiled) return compiled;
  const req = createRequire(__filename);
  const dir = path.dirname(req.resolve('@prisma/schema-engine-wasm'));
  const glue = fs.readFileSync(path.join(dir, 'schema_engine_bg.js'), 'utf8');
  const exportNames: string[] = [];
  const glueSource = glue.replace(
    /^export\s+(async\s+function|function|class|const|let|var)\s+([A-Za-z0-9_$]+)/gm,
    (_m, kind: string, name: string) => {
      exportNames.push(name);
      return `${kind} ${name}`;
    },
  );
  if (/^export\s/m.test(glueSource) || /^import\s/m.test(glueSource)) {
    throw new Error('@prisma/schema-engine-wasm: unexpected module syntax in schema_engine_bg.js');
  }
  const module: WasmModule = new WA.Module(fs.readFileSync(path.join(dir, 'schema_engine_bg.wasm')));
  compiled = { module, glueSource, exportNames, dir };
  return compiled;
}

const unrefSetTimeout = (fn: () => void, ms: number) => {
  const timer = setTimeout(fn, ms);
  timer.unref?.();
  return timer;
};

/** A fresh instance of the engine module (glue + WebAssembly instance). */
export function loadEngineModule(): EngineModule {
  const files = engineFiles();
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const factory = new Function(
    'module',
    'setTimeout',
    `"use strict";\n${files.glueSource}\nreturn { ${files.exportNames.join(', ')} };`,
  ) as (module: { require: NodeRequire }, st: typeof unrefSetTimeout) => Record<string, unknown>;
  const glue = factory({ require: createRequire(path.join(files.dir, 'schema_engine_bg.js')) }, unrefSetTimeout);
  const instance: { exports: Record<string, unknown> } = new WA.Instance(files.module, {
    './schema_engine_bg.js': glue,
  });
  (glue.__wbg_set_wasm as (w: unknown) => void)(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue as unknown as EngineModule;
}

export interface EngineLogger {
  info(...a: any[]): void;
  warn(...a: any[]): void;
  error(...a: any[]): void;
}

/**
 * Runs `fn` with a schema engine connected through `factory`, then frees the engine and disposes every adapter it
 * opened (engine.free() does not), then runs `afterDispose` (e.g. releasing PGlite advisory locks).
 */
export async function withSchemaEngine<T>(
  factory: SqlMigrationAwareDriverAdapterFactory,
  fn: (engine: SchemaEngine) => Promise<T>,
  options: { logger?: EngineLogger; decorate?: (adapter: SqlDriverAdapter) => SqlDriverAdapter } = {},
): Promise<T> {
  const opened: SqlDriverAdapter[] = [];
  const tracking: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const adapter = options.decorate ? options.decorate(await factory.connect()) : await factory.connect();
      opened.push(adapter);
      return adapter;
    },
    connectToShadowDb: async () => {
      throw new Error('@arl/db: the schema engine asked for a shadow database, which this package never provides');
    },
  };
  const logger = options.logger;
  const log = (line: string) => {
    if (!logger) return;
    try {
      const entry = JSON.parse(line) as { level?: string; fields?: { message?: string } };
      const level = String(entry.level ?? '').toUpperCase();
      if (level === 'ERROR') logger.error({ schemaEngine: entry }, entry.fields?.message ?? 'schema engine error');
      else if (level === 'WARN') logger.warn({ schemaEngine: entry }, entry.fields?.message ?? 'schema engine warning');
    } catch {
      // not JSON: ignore
    }
  };
  const mod = loadEngineModule();
  let engine: SchemaEngine | undefined;
  try {
    engine = await mod.SchemaEngine.new({ datamodels: undefined }, log, bindMigrationAwareSqlAdapterFactory(tracking));
    return await fn(engine);
  } finally {
    try {
      engine?.free();
    } finally {
      for (const adapter of opened.splice(0)) {
        await adapter.dispose().catch(() => undefined);
      }
    }
  }
}
