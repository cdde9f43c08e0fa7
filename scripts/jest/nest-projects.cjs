/**
 * The jest settings the control plane's and the agent's projects share. Both compile their
 * TypeScript with @swc/jest, with the decorator settings Nest needs (the agent's end-to-end suites
 * start the control plane's test kit), and split into a "unit" project over the sources and an
 * "e2e (dist)" project over the tsc-built dist/ (./dist-resolver.cjs).
 */
const swcTransform = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

/** What every project of a package has: node, its src/ and test/ roots, swc, the teardown. */
function commonProject(rootDir) {
  return {
    testEnvironment: 'node',
    rootDir,
    roots: ['<rootDir>/src', '<rootDir>/test'],
    // intl-messageformat and its parser ship only ES modules (the catalogues' ICU messages,
    // control-plane/src/i18n): compiled to CommonJS like our own sources.
    transform: {
      '^.+\\.ts$': swcTransform,
      '/node_modules/(intl-messageformat|@formatjs)/.+\\.js$': swcTransform,
    },
    transformIgnorePatterns: ['/node_modules/(?!(intl-messageformat|@formatjs)/)'],
    globalTeardown: '<rootDir>/../control-plane/test/support/global-teardown.ts',
  };
}

module.exports = { swcTransform, commonProject };
