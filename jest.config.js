/** One jest run covers unit, integration and e2e suites; every suite runs in band (see README). */
module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/*.int-spec.ts'],
  transform: {
    '^.+\\.(t|j)s$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }],
  },
  // @noble/* ship as ES modules only: let ts-jest turn them into CommonJS for the test runtime.
  transformIgnorePatterns: ['/node_modules/(?!@noble/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
  // One private, current nats-server for the run (test/support/global-nats.ts).
  globalSetup: '<rootDir>/test/support/jest-global-setup.ts',
  globalTeardown: '<rootDir>/test/support/jest-global-teardown.ts',
};
