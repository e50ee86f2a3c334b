import fs from 'node:fs';
import path from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';

import { PrismaClient } from './generated/prisma/client';

export interface Logger {
  info(...a: any[]): void;
  warn(...a: any[]): void;
  error(...a: any[]): void;
}

export interface DbOptions {
  /** PostgreSQL connection string. When unset, an embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string;
  /** PGlite data directory (created if missing), or 'memory://' for an in-memory database. Default 'memory://'. */
  dataDir?: string;
  /** PostgreSQL schema name, default 'public' (or the `schema` parameter of `databaseUrl`). Created if missing. */
  schema?: string;
  /**
   * Connections of the PostgreSQL pool (default 10, pg's own). A worker running many scans at once needs more: each
   * scan writes its steps and its ending while the others do; see the server's databasePoolMax().
   */
  poolMax?: number;
  logger?: Logger;
}

export interface Db {
  prisma: PrismaClient;
  kind: 'pglite' | 'postgres';
  /**
   * Run one SQL statement with parameters, or a multi-statement script without: used by pg-boss's
   * `db: { executeSql }` option and raw queries. Returns the rows of the (last) statement.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
  /** PostgreSQL connection string (with the schema's search_path) when kind==='postgres'; null for PGlite. */
  connectionString: string | null;
  schema: string;
  /** Connections of the PostgreSQL pool (for metrics); null for PGlite, which has one session and no pool. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /** Idempotent: disconnects Prisma and closes the PGlite instance / pg pool. */
  close(): Promise<void>;
}

/** Internal: what migrate() needs to open its own connection(s). Not part of the public API. */
export interface DbInternals {
  /** A migration-aware adapter factory for the schema engine (PostgreSQL: a dedicated one-connection pool). */
  engineFactory(): SqlMigrationAwareDriverAdapterFactory;
  decorateEngineAdapter?(adapter: SqlDriverAdapter): SqlDriverAdapter;
  afterEngine?(): Promise<void>;
  logger?: Logger;
  /** Serializes migrate() calls made through this Db. */
  lock: Promise<unknown>;
}

export const internals = new WeakMap<Db, DbInternals>();

/** Internal: the PGlite instance behind a Db (test helper: dumping the migrated template). */
export const pgliteOf = new WeakMap<Db, PGlite>();

/**
 * LISTEN on the embedded database: PGlite delivers the NOTIFYs of its own transactions when they commit. Returns
 * the unsubscribe function. (With PostgreSQL, listeners open their own connection: a pooled one would be reused.)
 */
export async function listenEmbedded(db: Db, channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
  const pglite = pgliteOf.get(db);
  if (!pglite) throw new Error('@arl/db: listenEmbedded needs an embedded (PGlite) database');
  return pglite.listen(channel, onPayload);
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(
      `@arl/db: invalid PostgreSQL schema name ${JSON.stringify(schema)} (letters, digits and _, not starting with a digit, at most 63)`,
    );
  }
}

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Splits a Prisma-style `?schema=` parameter off a PostgreSQL URL (pg does not understand it). */
function parseDatabaseUrl(databaseUrl: string): { url: URL; schemaParam: string | null } {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new Error('@arl/db: databaseUrl is not a valid URL (expected postgresql://user:password@host:port/database)');
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new Error(`@arl/db: databaseUrl must start with postgresql:// (got ${url.protocol}//)`);
  }
  const schemaParam = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  return { url, schemaParam };
}

function normalizeRows(result: { rows?: any[] } | Array<{ rows?: any[] }>): { rows: any[] } {
  if (Array.isArray(result)) {
    const last = result[result.length - 1];
    return { rows: last?.rows ?? [] };
  }
  return { rows: result.rows ?? [] };
}

export async function createDb(options: DbOptions = {}): Promise<Db> {
  return options.databaseUrl ? createPostgresDb(options.databaseUrl, options) : createPgliteDb(options);
}

export async function createPostgresDb(databaseUrl: string, options: DbOptions): Promise<Db> {
  const { url, schemaParam } = parseDatabaseUrl(databaseUrl);
  const schema = options.schema ?? schemaParam ?? 'public';
  assertSchemaName(schema);
  // JIT off for every connection: PostgreSQL compiles any statement whose estimate passes jit_above_cost, and the
  // estimates of our keyed reads are large (a chunk of 100 scans' details at a million companies: 404 ms of JIT for 16 ms
  // of work, so filling the details after a start took hours). Short keyed statements never repay the compile.
  const sessionOptions = `-c search_path=${schema} -c jit=off`;
  url.searchParams.set('options', sessionOptions);
  const connectionString = url.toString();
  const baseUrl = new URL(url.toString());
  baseUrl.searchParams.delete('options');
  // Bounded waits: while PostgreSQL restarts or the network is cut, a query that needs a new connection fails after
  // 5 s (the API answers 503, the worker backs off) instead of waiting for ever; keepAlive finds dead sockets.
  const poolConfig: pg.PoolConfig = { connectionString: baseUrl.toString(), options: sessionOptions, connectionTimeoutMillis: 5_000, keepAlive: true };
  const pool = new pg.Pool({ ...poolConfig, max: options.poolMax ?? 10 });

  // Create the schema first (and fail early with a clear message when the server is unreachable).
  const setup = new pg.Client({ connectionString: baseUrl.toString() });
  try {
    await setup.connect();
    if (schema !== 'public') await setup.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
  } catch (err) {
    await setup.end().catch(() => undefined);
    // Two processes creating the same schema at once: one gets a unique violation; the schema exists.
    if ((err as { code?: string }).code !== '23505') throw err;
  }
  await setup.end().catch(() => undefined);

  pool.on('error', (err) => options.logger?.error({ err }, '@arl/db: idle PostgreSQL connection error'));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { schema }) });

  let closed: Promise<void> | undefined;
  const db: Db = {
    prisma,
    kind: 'postgres',
    schema,
    connectionString,
    async executeSql(text, values) {
      return normalizeRows(await pool.query(text, values as unknown[] | undefined));
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close() {
      closed ??= (async () => {
        await prisma.$disconnect().catch(() => undefined);
        await pool.end();
      })();
      return closed;
    },
  };
  internals.set(db, {
    // A dedicated one-connection pool: the engine's session-level advisory lock must be taken and released on the
    // same connection, and ending this pool (adapter.dispose) ends that session even if the engine did not unlock.
    engineFactory: () => new PrismaPg({ ...poolConfig, max: 1 }, { schema }),
    decorateEngineAdapter: (adapter) => {
      // @prisma/adapter-pg 7.10 runs a migration script by splitting it at every ";", comments and function bodies
      // included: a plpgsql trigger function (migration company_change_version) or a ";" in a comment breaks it.
      // The simple-query protocol runs the whole script as PostgreSQL itself splits it (as psql does).
      const a = adapter as SqlDriverAdapter & { client: pg.PoolClient | pg.Pool; onError(e: unknown): never };
      a.executeScript = async (script: string) => {
        try {
          await a.client.query(script);
        } catch (e) {
          a.onError(e);
        }
      };
      return a;
    },
    logger: options.logger,
    lock: Promise.resolve(),
  });
  return db;
}

/** Internal: `loadDataDir` starts from a dump of another PGlite database (the test helper's migrated template). */
export async function createPgliteDb(options: DbOptions, extra: { loadDataDir?: Blob } = {}): Promise<Db> {
  const schema = options.schema ?? 'public';
  assertSchemaName(schema);
  const dataDir = options.dataDir ?? 'memory://';
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) fs.mkdirSync(path.resolve(dataDir), { recursive: true });
  const pglite = await PGlite.create({
    dataDir: inMemory ? dataDir : path.resolve(dataDir),
    ...(extra.loadDataDir ? { loadDataDir: extra.loadDataDir } : {}),
  });
  if (schema !== 'public') {
    await pglite.exec(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}; SET search_path TO ${quoteIdent(schema)};`);
  }
  const withSchema = (adapter: SqlDriverAdapter): SqlDriverAdapter => {
    if (schema === 'public') return adapter;
    const info = adapter.getConnectionInfo?.bind(adapter);
    adapter.getConnectionInfo = () => ({ ...(info ? info() : { supportsRelationJoins: true }), schemaName: schema });
    return adapter;
  };
  const factory = new PrismaPGlite(pglite);
  const prismaFactory: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => withSchema(await factory.connect()),
    connectToShadowDb: () => factory.connectToShadowDb(),
  };
  const prisma = new PrismaClient({ adapter: prismaFactory });

  let closed: Promise<void> | undefined;
  const db: Db = {
    prisma,
    kind: 'pglite',
    schema,
    connectionString: null,
    poolStats: () => null,
    async executeSql(text, values) {
      if (values && values.length > 0) return normalizeRows(await pglite.query(text, values));
      // Without parameters: the simple-query protocol, so multi-statement scripts (DDL) work.
      return normalizeRows(await pglite.exec(text));
    },
    close() {
      closed ??= (async () => {
        await prisma.$disconnect().catch(() => undefined);
        if (!pglite.closed) await pglite.close();
      })();
      return closed;
    },
  };
  pgliteOf.set(db, pglite);
  internals.set(db, {
    engineFactory: () => factory,
    decorateEngineAdapter: (adapter) => {
      // pglite-prisma-adapter 0.7.2 does not await exec() in executeScript: a failing migration would be recorded as
      // applied and its error would surface as an unhandled rejection. Await it and map the error like queries.
      const a = adapter as SqlDriverAdapter & { client: PGlite; onError(e: unknown): never };
      a.executeScript = async (script: string) => {
        try {
          await a.client.exec(script);
        } catch (e) {
          a.onError(e);
        }
      };
      return withSchema(a);
    },
    // The engine leaves its migration advisory lock held on PGlite's only session.
    afterEngine: async () => {
      if (!pglite.closed) await pglite.query('SELECT pg_advisory_unlock_all()');
    },
    logger: options.logger,
    lock: Promise.resolve(),
  });
  return db;
}
