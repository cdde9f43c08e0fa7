module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  testRegex: '\\.spec\\.ts$',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  // Each spec runs a real chain and RPC server on loopback, with slots on a timer.
  testTimeout: 30_000,
};
