module.exports = {
  testEnvironment: 'node',
  // src: unit specs beside the code; test: e2e specs (real v2ray, real gRPC on loopback).
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '\\.(e2e-)?spec\\.ts$',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleNameMapper: { '^@scn/proto$': '<rootDir>/../proto/src/index.ts' },
};
