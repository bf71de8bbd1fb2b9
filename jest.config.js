/**
 * Jest runs in ESM mode (NestJS 12's packages are ESM): NODE_OPTIONS=--experimental-vm-modules is set
 * by `npm test`. Unit tests sit beside the code (src/**\/*.spec.ts); HTTP tests live in test/, and the
 * TypeScript client's (against the same service) in clients/typescript/test/.
 */
export default {
  testEnvironment: 'node',
  rootDir: '.',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
    '<rootDir>/clients/typescript/test/**/*.e2e-spec.ts',
  ],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  testTimeout: 60000,
  maxWorkers: 2,
};
