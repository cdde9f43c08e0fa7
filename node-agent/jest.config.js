module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  testRegex: '\\.spec\\.ts$',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleNameMapper: { '^@scn/proto$': '<rootDir>/../proto/src/index.ts' },
};
