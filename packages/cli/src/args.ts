// Command-line parsing (node:util parseArgs, strict): every mistake becomes a UsageError naming what is wrong.
import { parseArgs } from 'node:util';
import { UsageError } from './errors';

export const FORMATS = ['text', 'json', 'markdown', 'github'] as const;
export type Format = (typeof FORMATS)[number];

/**
 * The service `--api` defaults to. The project names no public deployment, so the default is the address
 * `npm start` serves on; pipelines set `--api` or ARL_API_URL to their deployment.
 */
export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

export interface CheckCommand {
  command: 'check';
  url: string;
  failUnder: number | null;
  failOnGradeDrop: boolean;
  /** Fail when any check earns fewer points than in the baseline (a capped score can hide that). */
  failOnCheckDrop: boolean;
  /** Points the score may fall below the baseline's before the gate fails (default 0: any drop fails). */
  maxDrop: number;
  baseline: string | null;
  format: Format;
  /** Also write the pull-request comment (markdown) to this file, whatever the format. */
  commentFile: string | null;
  api: string;
  local: boolean;
  allowPrivate: boolean;
  timeoutMs: number;
}

export type Command = CheckCommand | { command: 'help' } | { command: 'version' };

export const USAGE = `Usage: arl check <url> [options]

Scans <url> for agent readiness and decides whether a pipeline passes.

Options:
  --fail-under <0-100>        fail (exit 1) when the score is below this
  --fail-on-grade-drop        fail (exit 1) when the grade is lower than the baseline's
  --fail-on-check-drop        fail (exit 1) when any check earns fewer points than in the baseline
  --baseline <domain|file>    compare with a company's current report on the service, or with a
                              file written by an earlier \`arl check --format json\`
  --max-drop <0-100>          with a baseline: points the score may fall before it counts as a
                              regression (default 0: any drop fails)
  --format <format>           text (default), json, markdown (a pull-request comment) or github
                              (annotations on stdout, job summary appended to $GITHUB_STEP_SUMMARY)
  --comment-file <path>       also write the pull-request comment (markdown) to this file
  --api <url>                 the leaderboard service (default $ARL_API_URL, else ${DEFAULT_API_URL})
  --local                     scan in this process with the scanner package; no service needed
  --allow-private             with --local: allow loopback and private addresses (a preview server in the job)
  --timeout <seconds>         the whole run's deadline, from arl's start; every request gets the
                              time left (default 300)
  -h, --help                  this help
  -v, --version               the version

A regression is a score more than --max-drop points below the baseline's (any drop by default).
Exit codes: 0 passed, 1 failed (below --fail-under, or a regression against the baseline),
2 could not decide (bad arguments, service unreachable, late or off-contract, the scan could not run,
the timeout).
Progress goes to stderr, the verdict to stdout.
`;

export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        'fail-under': { type: 'string' },
        'fail-on-grade-drop': { type: 'boolean' },
        'fail-on-check-drop': { type: 'boolean' },
        baseline: { type: 'string' },
        'max-drop': { type: 'string' },
        format: { type: 'string' },
        'comment-file': { type: 'string' },
        api: { type: 'string' },
        local: { type: 'boolean' },
        'allow-private': { type: 'boolean' },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (err) {
    throw new UsageError(describeParseError(err));
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  if (values.version) return { command: 'version' };
  const [command, url, ...extra] = positionals;
  if (command === undefined) throw new UsageError('No command given: use `arl check <url>`');
  if (command !== 'check') throw new UsageError(`Unknown command "${command}": the only command is \`check\``);
  if (url === undefined) throw new UsageError('No URL given: use `arl check <url>`');
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}": give one URL`);
  if (values['allow-private'] && !values.local) throw new UsageError('--allow-private applies to --local scans only');
  if (values['fail-on-grade-drop'] && values.baseline === undefined) throw new UsageError('--fail-on-grade-drop needs --baseline');
  if (values['fail-on-check-drop'] && values.baseline === undefined) throw new UsageError('--fail-on-check-drop needs --baseline');
  if (values['max-drop'] !== undefined && values.baseline === undefined) throw new UsageError('--max-drop needs --baseline');
  if (values.local && values.api !== undefined) throw new UsageError('--local and --api exclude each other');

  return {
    command: 'check',
    url: parseTargetUrl(url),
    failUnder: values['fail-under'] === undefined ? null : parseIntegerIn(values['fail-under'], '--fail-under', 0, 100),
    failOnGradeDrop: values['fail-on-grade-drop'] === true,
    failOnCheckDrop: values['fail-on-check-drop'] === true,
    maxDrop: values['max-drop'] === undefined ? 0 : parseIntegerIn(values['max-drop'], '--max-drop', 0, 100),
    baseline: values.baseline === undefined ? null : nonEmpty(values.baseline, '--baseline'),
    format: parseFormat(values.format),
    commentFile: values['comment-file'] === undefined ? null : nonEmpty(values['comment-file'], '--comment-file'),
    api: parseApiUrl(values.api ?? env.ARL_API_URL ?? DEFAULT_API_URL, values.api === undefined && env.ARL_API_URL ? 'ARL_API_URL' : '--api'),
    local: values.local === true,
    allowPrivate: values['allow-private'] === true,
    timeoutMs: (values.timeout === undefined ? 300 : parseIntegerIn(values.timeout, '--timeout', 1, 3600)) * 1000,
  };
}

function describeParseError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const option = /'([^']+)'/.exec(e.message ?? '')?.[1];
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `Unknown option ${option ?? ''}`.trim();
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `Option ${option?.split(' ')[0] ?? ''} needs a value`.replace('  ', ' ');
    default:
      return 'Could not read the arguments';
  }
}

/**
 * The URL to scan: http(s) only, with a host; a bare domain gets https://. A bare word without a dot (`arl check
 * check`, a misplaced option value) is refused rather than scanned as https://check/: a name without a dot is a
 * host only on an intranet, and there the scheme says so (`http://intranet`).
 */
export function parseTargetUrl(raw: string): string {
  const text = raw.trim();
  // `localhost:8080` is a host and port, not a scheme named localhost.
  const hasScheme = /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text);
  const withScheme = hasScheme ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`"${raw}" is not a URL`);
  }
  if (!hasScheme && !/[.:]/.test(url.hostname) && url.hostname !== 'localhost') {
    throw new UsageError(`"${raw}" is not a URL to scan: use \`arl check <url>\`, e.g. \`arl check https://example.com\` (a host name without a dot needs its scheme: http://intranet)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`"${raw}" is not an http(s) URL`);
  if (!url.hostname || !/^[a-z0-9.:[\]-]+$/i.test(url.hostname) || url.username || url.password) {
    throw new UsageError(`"${raw}" is not a URL that can be scanned (a host name, no user or password)`);
  }
  return url.href;
}

function parseApiUrl(raw: string, name: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${name} "${raw}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${name} "${raw}" is not an http(s) URL`);
  return url.href.replace(/\/+$/, '');
}

function parseIntegerIn(raw: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`${name} must be a whole number from ${min} to ${max}, not "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new UsageError(`${name} must be from ${min} to ${max}, not ${n}`);
  return n;
}

function parseFormat(raw: string | undefined): Format {
  if (raw === undefined) return 'text';
  if ((FORMATS as readonly string[]).includes(raw)) return raw as Format;
  throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${raw}"`);
}

function nonEmpty(raw: string, name: string): string {
  if (raw.trim() === '') throw new UsageError(`${name} needs a value`);
  return raw.trim();
}
