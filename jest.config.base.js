// Shared Jest settings for every workspace. ts-jest transpiles each file on its own
// (isolatedModules in tsconfig.base.json); type checking is `tsc` in the build task.
// The @arl/db preset lets PGlite start inside Jest without --experimental-vm-modules (see its README).
const withPglite = require('@arl/db/jest-preset');

/** @type {import('jest').Config} */
module.exports = withPglite({
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // A deadline for a test that hangs, not a speed budget: far beyond any test's normal time, because CI runs every
  // package side by side on 2 cores and work that takes 10 s on a quiet machine can take 40 s there (issue 38: a
  // 30 s timeout failed 44 concurrent scans that needed 39 s). Speed targets live in `npm run bench`.
  testTimeout: 300_000,
  // Jest's default soft cleanup of globals between files stays on: with `globalsCleanup: 'off'` every test file's
  // module graph stayed reachable from globals (Prisma's WASM panic registry among them) and one in-band server run
  // grew to 14 GB and took 15 minutes on PGlite alone. The price is a `set_message` DeprecationWarning in some runs.
});
