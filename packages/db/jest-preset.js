// Jest settings every workspace that creates PGlite databases through @arl/db needs (createTestDb, createDb):
//   module.exports = require('@arl/db/jest-preset')(require('../../jest.config.base.js'));
// See jest-pglite-transform.js for why. Keeps the given config's own transforms.
'use strict';

const path = require('node:path');

module.exports = function withPglite(config = {}) {
  return {
    ...config,
    transform: {
      '[\\\\/]@electric-sql[\\\\/]pglite[\\\\/]dist[\\\\/].*\\.cjs$': path.join(__dirname, 'jest-pglite-transform.js'),
      ...(config.transform || {}),
    },
    transformIgnorePatterns: ['[\\\\/]node_modules[\\\\/](?!@electric-sql[\\\\/]pglite[\\\\/])'],
  };
};
