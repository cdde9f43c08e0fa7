// Global setup of the end-to-end suites (jest projects "e2e", which run on dist/ through
// dist-resolver.cjs): refuse to start on a dist/ older than its sources, then the usual
// PostgreSQL setup of the control plane's tests.
'use strict';
const path = require('node:path');
const { assertBuilt } = require('../build-stamp.cjs');
// Required now, while jest's transform hook for this file is active (.ts through @swc/jest).
const postgresSetup = require('../../control-plane/test/support/global-setup.ts');

/** The packages whose dist/ each suite runs (node-agent's suites start a control plane). */
const BUILDS_RUN_BY = {
  'control-plane': ['proto', 'devchain', 'control-plane'],
  'node-agent': ['proto', 'control-plane', 'node-agent'],
  portal: ['proto', 'devchain', 'control-plane', 'portal'],
};

module.exports = async function e2eGlobalSetup(globalConfig, projectConfig) {
  const pkg = path.basename(projectConfig.rootDir);
  const builds = BUILDS_RUN_BY[pkg];
  if (!builds) throw new Error(`e2e-global-setup: no builds known for ${pkg}`);
  assertBuilt(builds);
  process.stdout.write(`\n[tests] end-to-end suites on the built ${builds.join(', ')} (dist/)\n`);
  await postgresSetup.default(globalConfig, projectConfig);
};
