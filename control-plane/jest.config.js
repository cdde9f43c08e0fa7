/**
 * Two projects. "unit": unit specs and db-specs (real PostgreSQL) over the TypeScript sources
 * through @swc/jest, fast. "e2e": the end-to-end specs (HTTP and gRPC from outside) over the
 * tsc-built dist/ that `npm start` runs (a refusal that threw only in tsc's output was
 * a 500 in production while every suite passed). The specs themselves stay TypeScript and import
 * `../../src/...` as usual; ../scripts/jest/dist-resolver.cjs loads dist/ for those imports, and
 * the global setup refuses a dist/ older than the sources (`npm test` builds first).
 */
const { commonProject } = require('../scripts/jest/nest-projects.cjs');

const common = commonProject(__dirname);

module.exports = {
  // Run-wide options (jest ignores them inside projects).
  maxWorkers: 2,
  testTimeout: 30000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testRegex: '\\.(spec|db-spec)\\.ts$',
      moduleNameMapper: { '^@scn/proto$': '<rootDir>/../proto/src/index.ts' },
      globalSetup: '<rootDir>/test/support/global-setup.ts',
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
