/**
 * Runs a CLI's main and exits with the code it returns. The schema engine leaves a timer behind (see @arl/db), so the
 * exit is explicit; an error main did not turn into a code exits with `crashCode` and one line, never a stack.
 */
export function runMain(main: (argv: string[]) => Promise<number>, crashCode: number): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`Failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(crashCode);
    },
  );
}
