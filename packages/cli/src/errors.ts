// Exit codes of `arl`: 0 the gate passed, 1 the gate failed (threshold or regression), 2 the gate could not decide
// (bad arguments, service unreachable, scan could not run). Every expected failure is a CliError with its code and
// a sentence for people; anything else is a bug and also exits 2.
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
