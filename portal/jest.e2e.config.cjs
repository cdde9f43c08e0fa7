/** Browser suite: real Chromium (Debian's /usr/bin/chromium) against a real control plane. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/test/e2e'],
  testRegex: process.env.SCN_SCREENSHOTS
    ? 'screenshots\\.e2e-spec\\.ts$'
    : '(?<!screenshots)\\.e2e-spec\\.ts$',
  transform: {
    '^.+\\.ts$': swc,
    // The control plane's catalogues (control-plane/dist/i18n) use intl-messageformat, whose
    // parser ships only ES modules: compiled for jest as the control plane's own config does.
    '/node_modules/(intl-messageformat|@formatjs)/.+\\.js$': swc,
  },
  transformIgnorePatterns: ['/node_modules/(?!(intl-messageformat|@formatjs)/)'],
  // What the suite loads of the application (the control plane's test database helpers, the
  // contract) is the tsc build, like the control plane it starts (control-plane/dist/main.js).
  resolver: '<rootDir>/../scripts/jest/dist-resolver.cjs',
  // Refuses a dist/ older than its sources, then the control plane's own test setup: embedded
  // PostgreSQL unless DATABASE_URL is set.
  globalSetup: '<rootDir>/../scripts/jest/e2e-global-setup.cjs',
  globalTeardown: '<rootDir>/../control-plane/test/support/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 1,
};
