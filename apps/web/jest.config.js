// Renders pages in Node from the sources (tsx through ts-jest); the browser part is tested in apps/web-e2e.
const base = require('../../jest.config.base.js');
module.exports = {
  ...base,
  transform: { '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
};
