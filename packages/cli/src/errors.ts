// Exit codes of `arl`: 0 the gate passed, 1 the gate failed (threshold or regression), 2 the gate could not decide
// (bad arguments, service unreachable or off-contract, scan could not run, timeout). Every expected failure is a
// CliError with its code and a sentence for people; anything else is a bug and also exits 2.
export const EXIT = { passed: 0, failed: 1, error: 2 } as const;

export class CliError extends Error {
  constructor(message: string, readonly exitCode: number = EXIT.error) {
    super(message);
    this.name = 'CliError';
  }
}

/** Bad input: the message ends with a pointer to the help. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(`${message} (see arl --help)`, EXIT.error);
    this.name = 'UsageError';
  }
}

/**
 * A reason as one printable line of bounded length: parts of it can come from the service (an error message, a
 * field name) or a library, and neither may break the log into lines or write control sequences to a terminal.
 */
export function oneLine(text: string, max = 500): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
