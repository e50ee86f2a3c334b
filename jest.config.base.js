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
  testTimeout: 30000,
  // Prisma's WASM query compiler keeps `global.PRISMA_WASM_PANIC_REGISTRY` and reads it in later files; Jest 30's
  // default soft cleanup of globals between files turned each read into a `set_message` DeprecationWarning. The
  // registry holds no test state, so globals are left alone (the documented switch).
  testEnvironmentOptions: { globalsCleanup: 'off' },
});
