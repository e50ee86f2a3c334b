// A PostgreSQL cluster of the test's own, in a temporary directory on a free loopback port, from the machine's
// PostgreSQL binaries (initdb, pg_ctl): the fault suite stops, starts and cuts it without touching the machine's
// shared server. initdb and the server refuse to run as root, so as root they run as the `postgres` user.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../ports';

const run = promisify(execFile);

export interface PrivatePostgres {
  port: number;
  url: string;
  dataDir: string;
  /** `pg_ctl stop -m fast` (every backend ends, clients see their connections closed). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Ends the backends whose application_name matches `nameLike` (pg_terminate_backend, as an operator would). */
  terminate(nameLike: string): Promise<number>;
  query<T = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<T[]>;
  dispose(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

async function as(cmd: string, args: string[]): Promise<void> {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  await run(file, argv, { timeout: 120_000 }); // a hang, not a slow initdb or pg_ctl on a loaded machine
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-pg-'));
  if (asRoot) await run('chown', ['postgres:postgres', dataDir]);
  await as('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const logFile = path.join(dataDir, 'server.log');
  // Only loopback TCP on our port; a socket directory of its own so it never meets the machine's server.
  const options = `-p ${port} -k ${dataDir} -h 127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const cluster: PrivatePostgres = {
    port,
    url,
    dataDir,
    async start() {
      await as('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start']);
    },
    async stop() {
      await as('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
    },
    async terminate(nameLike) {
      const rows = await cluster.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND application_name LIKE $1`,
        [nameLike],
      );
      return rows.filter((r) => r.ended).length;
    },
    async query<T>(sql: string, values: unknown[] = []) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql, values)).rows as T[];
      } finally {
        await client.end();
      }
    },
    async dispose() {
      await cluster.stop().catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}
