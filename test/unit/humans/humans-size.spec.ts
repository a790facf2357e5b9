import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import { HUMANS_PAGE, HUMANS_SCRIPT_ASSET, HUMANS_STYLE_ASSET } from '../../../src/humans/humans-assets';

const README = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
const CLAIM =
  /Page, script and stylesheet together are under (\d+) KB,\s+and under (\d+) KB as served gzip-compressed/;

/** The README states the page's weight; this keeps the sentence true as the page grows. */
describe('/humans size claim', () => {
  const parts = [HUMANS_PAGE, HUMANS_SCRIPT_ASSET.body, HUMANS_STYLE_ASSET.body];

  it('the README states it', () => {
    expect(README).toMatch(CLAIM);
  });

  it('page, script and stylesheet are under the stated sizes, plain and gzip-compressed', () => {
    const [, plainKb, gzipKb] = CLAIM.exec(README)!.map(Number);
    const plain = parts.reduce((sum, part) => sum + part.length, 0);
    const gzip = parts.reduce(
      (sum, part) => sum + gzipSync(part, { level: constants.Z_DEFAULT_COMPRESSION }).length,
      0,
    );
    expect(plain).toBeLessThan(plainKb * 1000);
    expect(gzip).toBeLessThan(gzipKb * 1000);
  });
});
