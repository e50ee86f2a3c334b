// The one place that reads the environment. Everything else receives a Config.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ed25519PrivateJwk } from '@arl/scanner';

export type ResponseValidation = 'fail' | 'log' | 'off';

export interface Config {
  nodeEnv: string;
  host: string;
  port: number;
  feedbackPort: number;
  /** Base URL of the leaderboard host as users reach it (links in mails). */
  publicUrl: string;
  /** Base URL of the feedback host as users reach it (card URLs). */
  feedbackPublicUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  /** DATABASE_POOL_MAX: connections of this process's PostgreSQL pool; null: sized by databasePoolMax(). */
  databasePoolMax: number | null;
  logLevel: string;
  /** pretty (pino-pretty) or json; null = pretty in development on a terminal, else json. */
  logFormat: 'pretty' | 'json' | null;
  /** Port of the operations listener (/metrics, /healthz, /readyz) on HOST; null = none. */
  metricsPort: number | null;
  validateResponses: ResponseValidation;
  seedFile: string | null;
  /** Key for signing leaderboard cursors; every process of one deployment must share it. Null when unset outside
   *  production: a random key is generated once and kept in DATA_DIR (local-secrets.ts). */
  cursorSecret: string | null;
  shutdownTimeoutMs: number;
  /** Origins whose pages may call both hosts from a browser: '*' (any, the default), or a list (empty: none). */
  corsOrigins: '*' | string[];
  scan: {
    allowPrivateNetworks: boolean;
    concurrency: number;
    /** Scans per minute per client; 0 disables. */
    rateLimit: number;
    /** Scans waiting at most; beyond it POST answers 503 queue_full. */
    queueLimit: number;
    /** Milliseconds between rescans of each curated company; null disables rescans. */
    rescanIntervalMs: number | null;
    /** At most one rescan per company is started by disputes in this many milliseconds; later disputes join it. */
    disputeRescanIntervalMs: number;
    /** Whether this process runs the job worker (scans, journeys, mail, rescans). */
    inProcessWorker: boolean;
    /** Pages a scan samples at most for page-level checks (home page included). */
    maxPages: number;
    /** Minimum milliseconds between two census scans (origin rescan) starting on one IP address; 0: no gap. */
    ipGapMs: number;
    /** SCAN_EXTRA_CA_FILE's certificates (PEM), trusted by scans beside the bundled roots; tests and benches only. */
    extraCaPem: string | null;
    /** Ed25519 private key (JWK JSON or PKCS#8 PEM) scans sign requests with (Web Bot Auth). Null when unset: outside
     *  production a key is generated once and kept in DATA_DIR (local-secrets.ts); in production scans go unsigned. */
    signingKey: string | null;
  };
  mail: {
    smtpUrl: string | null;
    from: string;
  };
  llm: {
    baseUrl: string | null;
    model: string | null;
    apiKey: string | null;
  };
  webhooks: {
    /** How long a delivery is retried (and how long a URL may fail before its subscription is paused). */
    retryWindowMs: number;
    /** First retry delay; each next one doubles, up to an hour. */
    retryBaseMs: number;
    /** Time allowed for one delivery attempt (connect, send, answer). */
    timeoutMs: number;
    /** Subscriptions created per minute per client; 0 disables. */
    rateLimit: number;
  };
  feedback: {
    /** Reports per minute per client; 0 disables. */
    rateLimit: number;
    /** Key for signing invitation tokens; every process of one deployment must share it. Null as cursorSecret. */
    inviteSecret: string | null;
  };
  /** The dataset downloads (open-data/README.md, Downloads). */
  dataset: {
    /** The folder whose snapshot of the day (`npm run export --out`'s file) a download serves as a file, when there. */
    snapshotDir: string;
    /** A download whose reader takes nothing for this long is ended. */
    idleTimeoutMs: number;
  };
}

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`);
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    problems.push(`${name} must be true or false (got ${JSON.stringify(raw)})`);
    return fallback;
  };
  const url = (name: string, fallback: string | null, protocols: string[]): string | null => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw.replace(/\/+$/, '');
    } catch {
      problems.push(`${name} must be a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL`);
      return fallback;
    }
  };

  const nodeEnv = read('NODE_ENV') ?? 'development';
  const production = nodeEnv === 'production';
  const host = read('HOST') ?? '127.0.0.1';
  const port = int('PORT', 3000, 0, 65535);
  const feedbackPort = int('FEEDBACK_PORT', 3001, 0, 65535);
  const linkHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;

  const validateRaw = read('VALIDATE_RESPONSES') ?? (production ? 'log' : 'fail');
  if (!['fail', 'log', 'off'].includes(validateRaw)) problems.push('VALIDATE_RESPONSES must be fail, log or off');

  const logLevel = read('LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent');
  }

  const logFormat = read('LOG_FORMAT') ?? null;
  if (logFormat !== null && logFormat !== 'pretty' && logFormat !== 'json') problems.push('LOG_FORMAT must be pretty or json');
  const metricsPort = read('METRICS_PORT') === undefined ? null : int('METRICS_PORT', 0, 0, 65535);

  const rescanRaw = read('RESCAN_INTERVAL') ?? '7d';
  const rescanIntervalMs = parseInterval(rescanRaw);
  if (rescanIntervalMs === undefined) problems.push('RESCAN_INTERVAL must be "off" or a duration like 7d, 12h, 30m, 45s');

  const ipGapMs = parseInterval(read('SCAN_IP_GAP') ?? '2s');
  if (ipGapMs === undefined || (ipGapMs !== null && ipGapMs > 60_000)) {
    problems.push('SCAN_IP_GAP must be "off" or a duration like 2s or 500ms, at most 60s');
  }

  // Tests and the census bench only (their simulated sites are signed by an authority made at run time): the file's
  // authorities are trusted by scans in addition to the bundled roots, never instead of them.
  const extraCaFile = read('SCAN_EXTRA_CA_FILE');
  let extraCaPem: string | null = null;
  if (extraCaFile !== undefined) {
    try {
      extraCaPem = fs.readFileSync(path.resolve(cwd, extraCaFile), 'utf8');
      if (!extraCaPem.includes('-----BEGIN CERTIFICATE-----')) problems.push('SCAN_EXTRA_CA_FILE must be a PEM file of certificates');
    } catch (err) {
      problems.push(`SCAN_EXTRA_CA_FILE cannot be read: ${(err as Error).message}`);
    }
  }

  const duration = (name: string, fallback: string, min: number, max: number): number => {
    const value = parseInterval(read(name) ?? fallback);
    if (value === undefined || value === null || value < min || value > max) {
      problems.push(`${name} must be a duration like 24h, 30m, 10s or 500ms, from ${min} ms to ${max} ms`);
      return parseInterval(fallback) as number;
    }
    return value;
  };

  // Unset outside production: a random key kept in DATA_DIR (local-secrets.ts), never a constant of the source.
  const cursorSecret = read('CURSOR_SECRET') ?? null;
  const inviteSecret = read('FEEDBACK_INVITE_SECRET') ?? null;
  for (const [name, value] of [['CURSOR_SECRET', cursorSecret], ['FEEDBACK_INVITE_SECRET', inviteSecret]] as const) {
    if (value === null && production) problems.push(`${name} must be set when NODE_ENV=production`);
    if (value !== null && value.length < 16) problems.push(`${name} must be at least 16 characters`);
  }

  const signingKey = read('SCANNER_SIGNING_KEY') ?? null;
  if (signingKey !== null) {
    try {
      ed25519PrivateJwk(signingKey);
    } catch (err) {
      problems.push(`SCANNER_SIGNING_KEY: ${(err as Error).message}`);
    }
  }

  const databaseUrl = url('DATABASE_URL', null, ['postgresql:', 'postgres:']);
  const seedFile = read('SEED_FILE');
  const corsOrigins = parseCorsOrigins(read('CORS_ORIGINS'));
  if (corsOrigins === undefined) {
    problems.push('CORS_ORIGINS must be *, none, or a comma-separated list of origins like https://app.example.com');
  }

  const config: Config = {
    nodeEnv,
    host,
    port,
    feedbackPort,
    publicUrl: url('PUBLIC_URL', null, ['http:', 'https:']) ?? `http://${linkHost}:${port}`,
    feedbackPublicUrl: url('FEEDBACK_PUBLIC_URL', null, ['http:', 'https:']) ?? `http://${linkHost}:${feedbackPort}`,
    dataDir: path.resolve(cwd, read('DATA_DIR') ?? './data'),
    databaseUrl,
    databasePoolMax: read('DATABASE_POOL_MAX') === undefined ? null : int('DATABASE_POOL_MAX', 10, 1, 500),
    logLevel,
    logFormat: logFormat as Config['logFormat'],
    metricsPort,
    validateResponses: validateRaw as ResponseValidation,
    seedFile: seedFile ? path.resolve(cwd, seedFile) : null,
    cursorSecret,
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    corsOrigins: corsOrigins ?? '*',
    scan: {
      allowPrivateNetworks: bool('SCAN_ALLOW_PRIVATE_NETWORKS', false),
      concurrency: int('SCAN_CONCURRENCY', 2, 1, 64),
      rateLimit: int('SCAN_RATE_LIMIT', 10, 0, 100_000),
      queueLimit: int('SCAN_QUEUE_LIMIT', 1000, 1, 1_000_000),
      rescanIntervalMs: rescanIntervalMs ?? null,
      // No "off": disputes without it are a rescan button without a limit (issue 28).
      disputeRescanIntervalMs: duration('DISPUTE_RESCAN_INTERVAL', '1h', 1000, 30 * 86_400_000),
      inProcessWorker: bool('WORKER_IN_PROCESS', true),
      maxPages: int('SCAN_MAX_PAGES', 10, 1, 100),
      ipGapMs: ipGapMs ?? 0,
      extraCaPem,
      signingKey,
    },
    mail: {
      smtpUrl: url('SMTP_URL', null, ['smtp:', 'smtps:']),
      from: read('MAIL_FROM') ?? 'Agent-Readiness Leaderboard <leaderboard@localhost>',
    },
    llm: {
      baseUrl: url('LLM_BASE_URL', null, ['http:', 'https:']),
      model: read('LLM_MODEL') ?? null,
      apiKey: read('LLM_API_KEY') ?? null,
    },
    webhooks: {
      retryWindowMs: duration('WEBHOOK_RETRY_WINDOW', '24h', 1000, 30 * 86_400_000),
      retryBaseMs: duration('WEBHOOK_RETRY_BASE', '10s', 10, 3_600_000),
      timeoutMs: duration('WEBHOOK_TIMEOUT', '10s', 100, 60_000),
      rateLimit: int('WEBHOOK_RATE_LIMIT', 10, 0, 100_000),
    },
    feedback: {
      rateLimit: int('FEEDBACK_RATE_LIMIT', 30, 0, 100_000),
      inviteSecret,
    },
    dataset: {
      snapshotDir: path.resolve(cwd, read('DATASET_SNAPSHOT_DIR') ?? path.join(read('DATA_DIR') ?? './data', 'snapshots')),
      idleTimeoutMs: duration('DATASET_IDLE_TIMEOUT', '30s', 100, 3_600_000),
    },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** `*` or unset: any origin; `none`: no origin; else origins (scheme://host[:port], no path). Undefined when invalid. */
export function parseCorsOrigins(raw: string | undefined): '*' | string[] | undefined {
  const value = raw?.trim() ?? '*';
  if (value === '*' || value === '') return '*';
  if (value === 'none') return [];
  const origins: string[] = [];
  for (const item of value.split(',').map((o) => o.trim()).filter(Boolean)) {
    let origin: string;
    try {
      origin = new URL(item).origin;
    } catch {
      return undefined;
    }
    if (origin === 'null' || origin !== item.replace(/\/$/, '')) return undefined;
    origins.push(origin);
  }
  return origins.length > 0 ? origins : undefined;
}

/** Where the embedded database lives: its own folder inside DATA_DIR, beside the mail outbox. */
export function pgliteDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'pglite');
}

/** "7d", "12h", "30m", "45s", "500ms" -> milliseconds; "off" -> null; anything else -> undefined. */
export function parseInterval(raw: string): number | null | undefined {
  if (/^off$/i.test(raw)) return null;
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(raw);
  if (!match) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
  const value = Number(match[1]) * unit;
  return value > 0 ? value : undefined;
}
