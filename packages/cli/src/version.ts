// Read from the package manifest so `arl --version` never drifts from it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const VERSION: string = (require('../package.json') as { version: string }).version;
