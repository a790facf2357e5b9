import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_STATUS } from '../../../src/http/error-status.table';

describe('error codes', () => {
  it('are all documented in the README with their status', () => {
    const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(readme).toContain(`| \`${code}\` | ${status} |`);
    }
  });
});
