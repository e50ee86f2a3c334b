// What every benchmark part shares: the databases, the child processes' environment, the verdict format.
import * as os from 'node:os';

export type Database = 'pglite' | 'postgres';

export const DATABASE_LABEL: Record<Database, string> = { pglite: 'embedded PGlite', postgres: 'PostgreSQL 15' };

/** Where PostgreSQL runs go; each creates a fresh schema in it and drops it afterwards. */
export const BENCH_POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

/** The targets run as in production: NODE_ENV=production, response validation in its production mode (`log`). */
export function benchEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? 'production',
    VALIDATE_RESPONSES: process.env.VALIDATE_RESPONSES ?? 'log',
    CURSOR_SECRET: 'bench-cursor-secret-0123456789',
    FEEDBACK_INVITE_SECRET: 'bench-invite-secret-0123456789',
  };
}

export const met = (ok: boolean) => (ok ? 'met' : 'NOT MET');

export function loadLine(): string {
  const [one, five, fifteen] = os.loadavg();
  return `load average ${one.toFixed(2)} ${five.toFixed(2)} ${fifteen.toFixed(2)} on ${os.cpus().length} cores`;
}
