/**
 * Unit specs beside the code (src) and end-to-end specs (test: real v2ray, and the real control
 * plane in-process over gRPC on loopback, with real PostgreSQL through the control plane's own
 * global setup). The control plane's code uses decorators, hence these swc settings.
 */
const swc = [
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

module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '\\.(e2e-)?spec\\.ts$',
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^@scn/proto$': '<rootDir>/../proto/src/index.ts' },
  globalSetup: '<rootDir>/../control-plane/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/../control-plane/test/support/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
