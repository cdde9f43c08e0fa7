/** Unit specs of the portal's pure logic (formatting, countdowns, retries): node, no browser. */
module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/src'],
  testRegex: '\\.spec\\.tsx?$',
  transform: {
    '^.+\\.[jt]sx?$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022' },
        module: { type: 'commonjs' },
      },
    ],
  },
  // intl-messageformat and its parser ship only ES modules: compiled like our own sources.
  transformIgnorePatterns: ['/node_modules/(?!(intl-messageformat|@formatjs)/)'],
  moduleNameMapper: { '^@scn/proto$': '<rootDir>/../proto/src/browser.ts' },
};
