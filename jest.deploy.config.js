/**
 * `npm run test:deploy`: the deployment artifacts that need container builds (deploy/Containerfile,
 * deploy/compose.yaml), run with podman. Kept out of the README's test command for its time (a cold
 * image build takes minutes); `.ci/run` runs it after the suite. The cheap deployment checks
 * (Kubernetes objects, the systemd unit, the Grafana dashboard) are ordinary specs in `npm test`.
 */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/deploy'],
  testMatch: ['**/*.deploy-spec.ts'],
  testTimeout: 600000,
  globalSetup: undefined,
  globalTeardown: undefined,
};
