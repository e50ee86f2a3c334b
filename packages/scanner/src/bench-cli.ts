import { runScannerBench } from './bench';

runScannerBench({ print: (line) => process.stdout.write(`${line}\n`) })
  .then((result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exitCode = result.failures === 0 && result.exemplaryMs < 1500 ? 0 : 1;
  })
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
