// The process logger. Secrets never reach the log, by two mechanisms:
// - pino's `redact` masks the places a secret is known to live (authorization and cookie headers of requests and
//   of upstream calls, connection strings, keys in a config object);
// - every string of every log line (message, fields, error messages and stacks) has the known secret values
//   (LLM_API_KEY, the signing keys, passwords in DATABASE_URL and SMTP_URL) replaced, so a secret echoed by a
//   third party inside some error text is masked as well.
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config';

export interface LoggerOptions {
  name?: string;
  /** Values masked wherever they appear in a log line (empty and short values are ignored). */
  secrets?: Array<string | null | undefined>;
  /** Where lines go (default stdout); tests pass a stream to read them. */
  destination?: DestinationStream;
  /** pretty: human-readable lines (pino-pretty); json: one JSON object per line. Unset: pretty only in development
   *  on a terminal, so production, files, pipes and tests get JSON. */
  format?: 'pretty' | 'json' | null;
  nodeEnv?: string;
}

const CENSOR = '[redacted]';
const REDACT_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]',
  'headers.authorization', 'headers.cookie', '*.headers.authorization', '*.headers.cookie', '*.headers["x-api-key"]',
  'databaseUrl', 'config.databaseUrl', 'apiKey', '*.apiKey', '*.smtpUrl', '*.inviteSecret', '*.cursorSecret', 'invite',
];

/** The secret values of a config, for `createLogger(level, { secrets })`. */
export function secretsOf(config: Pick<Config, 'databaseUrl' | 'cursorSecret' | 'llm' | 'mail' | 'feedback'>): string[] {
  const passwordOf = (url: string | null) => {
    try {
      return url ? decodeURIComponent(new URL(url).password) : null;
    } catch {
      return null;
    }
  };
  return [config.llm.apiKey, config.cursorSecret, config.feedback.inviteSecret, passwordOf(config.databaseUrl), passwordOf(config.mail.smtpUrl)]
    .filter((v): v is string => typeof v === 'string');
}

/** A copy of `value` with every occurrence of a secret replaced (strings, arrays, plain objects, errors). */
export function maskSecrets(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return secrets.reduce((text, secret) => text.split(secret).join(CENSOR), value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, secrets, depth + 1));
  if (value instanceof Error) {
    const copy = new Error(maskSecrets(value.message, secrets) as string);
    copy.name = value.name;
    copy.stack = maskSecrets(value.stack, secrets) as string | undefined;
    for (const [k, v] of Object.entries(value)) (copy as unknown as Record<string, unknown>)[k] = maskSecrets(v, secrets, depth + 1);
    if ('cause' in value) (copy as Error & { cause?: unknown }).cause = maskSecrets(value.cause, secrets, depth + 1);
    return copy;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v, secrets, depth + 1)]));
}

export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  // Short values would mask ordinary words; a real secret is long.
  const secrets = [...new Set((options.secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length >= 8))];
  return pino(
    {
      name: options.name ?? 'arl',
      level,
      redact: { paths: REDACT_PATHS, censor: CENSOR },
      hooks: secrets.length === 0 ? {} : {
        logMethod(args, method) {
          method.apply(this, args.map((arg) => maskSecrets(arg, secrets)) as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? prettyDestination(options),
  );
}

/** pino-pretty on stdout when the options ask for it (see LoggerOptions.format); undefined = JSON on stdout. */
function prettyDestination(options: LoggerOptions): DestinationStream | undefined {
  const pretty = options.format ? options.format === 'pretty' : (options.nodeEnv ?? 'development') !== 'production' && process.stdout.isTTY === true;
  if (!pretty) return undefined;
  // Loaded only when used: production never needs it. Synchronous, in-process (no worker thread to outlive us).
  const build = require('pino-pretty') as (opts: object) => DestinationStream;
  return build({ sync: true, colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

/** The format options of a Config (LOG_FORMAT, NODE_ENV). */
export const logOutputOf = (config: Pick<Config, 'logFormat' | 'nodeEnv'>): Pick<LoggerOptions, 'format' | 'nodeEnv'> => ({
  format: config.logFormat,
  nodeEnv: config.nodeEnv,
});
