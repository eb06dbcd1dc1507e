// The one Jest preset every workspace's jest.config.js calls, so a team can run its own tests alone
// (`npm test -w remote-title`) and the root runs them all (`npm run test:unit`).
const path = require('node:path');

/** @param {{ dir: string, environment?: 'jsdom' | 'node' }} options */
function createJestConfig({ dir, environment = 'jsdom' }) {
  return {
    displayName: path.basename(dir),
    rootDir: dir,
    testEnvironment: environment,
    roots: ['<rootDir>/src'],
    testMatch: ['**/*.test.ts', '**/*.test.tsx'],
    transform: { '^.+\\.[jt]sx?$': ['babel-jest', { rootMode: 'upward' }] },
    // ESM-only packages that Jest must transform.
    transformIgnorePatterns: ['/node_modules/(?!(idb|jotai)/)'],
    moduleNameMapper: {
      '\\.module\\.scss$': 'identity-obj-proxy',
      '\\.scss$': path.join(__dirname, 'scripts/jest/empty-module.js'),
      '\\.(svg|png|jpe?g|webp|mp4|vtt)$': path.join(__dirname, 'scripts/jest/file-module.js'),
    },
    setupFilesAfterEnv: environment === 'jsdom' ? [path.join(__dirname, 'scripts/jest/setup-dom.js')] : [],
    clearMocks: true,
    restoreMocks: true,
  };
}

module.exports = { createJestConfig };
