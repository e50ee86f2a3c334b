// Sources import each other with `.js` specifiers (required by Node's ESM resolution); Jest maps them back to `.ts`.
module.exports = { ...require('../../jest.config.base.js'), moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' } };
