// One browser and one server per test file; the files run one after another (the machine is small).
module.exports = { ...require('../../jest.config.base.js'), testTimeout: 60000 };
