module.exports = require('./jest-preset.js')(require('../../jest.config.base.js'));
