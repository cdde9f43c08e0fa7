/**
 * Two projects. "unit": the unit specs beside the code (src) over the TypeScript sources through
 * @swc/jest. "e2e": the end-to-end specs (test: real v2ray, and the real control plane
 * in-process over gRPC on loopback, with real PostgreSQL through the control plane's global
 * setup) over the tsc-built dist/ of the agent, the control plane and the contract, the code
 * that ships. The specs stay TypeScript and import `../../src/...` as usual;
 * ../scripts/jest/dist-resolver.cjs loads dist/ for those imports, and the global setup refuses
 * a dist/ older than the sources (`npm test` builds first). The control plane's test kit uses
 * decorators, hence these swc settings.
 */
const { commonProject } = require('../scripts/jest/nest-projects.cjs');

const common = commonProject(__dirname);

module.exports = {
  // Run-wide options (jest ignores them inside projects).
  maxWorkers: 2,
  testTimeout: 60000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testRegex: '\\.spec\\.ts$',
      moduleNameMapper: { '^@scn/proto$': '<rootDir>/../proto/src/index.ts' },
    },
    {
      ...common,
      displayName: 'e2e (dist)',
      testRegex: '\\.e2e-spec\\.ts$',
      resolver: '<rootDir>/../scripts/jest/dist-resolver.cjs',
      globalSetup: '<rootDir>/../scripts/jest/e2e-global-setup.cjs',
    },
  ],
};
