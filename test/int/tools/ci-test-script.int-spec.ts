import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', '..', 'scripts', 'ci-test.sh');

function ciTest(command: string) {
  const result = spawnSync('bash', [SCRIPT], {
    env: { ...process.env, CI_TEST_COMMAND: command },
    encoding: 'utf8',
  });
  return { code: result.status, lastLine: result.stdout.trimEnd().split('\n').pop() };
}

/** Issue 16: CI printed no summary when tests failed (pipefail ended the script first). */
describe('scripts/ci-test.sh (the test step of .ci/run)', () => {
  it('prints the real failed count and fails when the tests fail', () => {
    expect(ciTest('echo "Tests:       2 failed, 5 passed, 7 total"; exit 1')).toEqual({
      code: 1,
      lastLine: 'tests: 5 passed, 2 failed (exit status 1)',
    });
  });

  it('passes with the counts when the tests pass, and fails on a crash with no summary', () => {
    expect(ciTest('echo "Tests:       5 passed, 5 total"')).toEqual({
      code: 0,
      lastLine: 'tests: 5 passed, 0 failed (exit status 0)',
    });
    expect(ciTest('echo boom; exit 3')).toEqual({
      code: 3,
      lastLine: 'tests: 0 passed, 0 failed (exit status 3)',
    });
  });
});
