// One browser and one server per test file; the files run one after another (the machine is small). The deadline is
// the base config's (a hung test, not a speed budget).
module.exports = { ...require('../../jest.config.base.js') };
