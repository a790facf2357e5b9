import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verify, createPublicKey } from 'node:crypto';
import { buildConfig } from '../../../src/config/load-config';
import { ServiceKeyFileError } from '../../../src/identity/errors/service-key-file.error';
import { parseDidKey } from '../../../src/identity/did-key';
import { ServiceKey } from '../../../src/identity/service-key';
import { generateSigningKey } from '../../../src/identity/signing-key';
import { makeTempDir } from '../../support/temp-dir';

describe('the service key (issue 29)', () => {
  const dir = makeTempDir('agent-chat-service-key');
  afterAll(() => dir.remove());

  it('is generated into the data directory on first start, mode 0600, and the same key after', () => {
    const root = join(dir.path, 'fresh');
    mkdirSync(root);
    const first = new ServiceKey(buildConfig({ root }));
    const file = join(root, 'service-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.did).toMatch(/^did:key:z6Mk/);
    expect(new ServiceKey(buildConfig({ root })).did).toBe(first.did);
  });

  it('reads the seed from CHAT_SERVICE_KEY_FILE, so nodes sharing it share one did, and its signatures verify', () => {
    const key = generateSigningKey();
    const file = join(dir.path, 'shared.key');
    writeFileSync(file, `${key.seedHex}\n`);
    const a = new ServiceKey(buildConfig({ root: dir.path, serviceKeyFile: file }));
    const b = new ServiceKey(buildConfig({ root: join(dir.path, 'elsewhere'), serviceKeyFile: file }));
    expect([a.did, b.did]).toEqual([key.did, key.did]);
    const publicKey = createPublicKey({
      key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), parseDidKey(a.did)]),
      format: 'der',
      type: 'spki',
    });
    const signature = Buffer.from(a.sign('payload'), 'base64url');
    expect(verify(null, Buffer.from('payload'), publicKey, signature)).toBe(true);
    expect(verify(null, Buffer.from('other'), publicKey, signature)).toBe(false);
  });

  it('refuses to start on a named file that is missing or holds no seed', () => {
    const missing = join(dir.path, 'missing.key');
    expect(() => new ServiceKey(buildConfig({ root: dir.path, serviceKeyFile: missing }))).toThrow(
      ServiceKeyFileError,
    );
    const bad = join(dir.path, 'bad.key');
    writeFileSync(bad, 'not a seed\n');
    expect(() => new ServiceKey(buildConfig({ root: dir.path, serviceKeyFile: bad }))).toThrow(
      /does not hold a seed of 64 hex digits/,
    );
  });
});
