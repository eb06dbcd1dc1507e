module.exports = require('../jest.shared.js').createJestConfig({ dir: __dirname, environment: 'node' });
