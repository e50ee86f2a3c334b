// The gate as a library (the `arl` binary is src/main.ts): parse arguments, run a check, render a result.
export { parseCommand, DEFAULT_API_URL, FORMATS, USAGE } from './args';
export type { CheckCommand, Command, Format } from './args';
export { runCheck, render } from './check';
export type { CheckIo } from './check';
export { CliError, UsageError, EXIT } from './errors';
export { decide, changedChecks } from './verdict';
export { COMMENT_MARKER } from './format/markdown';
export type { Baseline, CheckChange, GateCheck, GateResult, GateVerdict, ScanOutcome } from './model';
