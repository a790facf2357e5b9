import { ManualClock } from '../../../src/common/clock';
import { buildConfig } from '../../../src/config/load-config';
import { DocumentsService } from '../../../src/docs/documents.service';
import { ServiceKey } from '../../../src/identity/service-key';
import { makeTempDir } from '../../support/temp-dir';

describe('document cache under a rotating Host (issue 18 item 6)', () => {
  const dir = makeTempDir('agent-chat-docs');
  afterAll(() => dir.remove());
  const serviceKey = new ServiceKey(buildConfig({ root: dir.path }));
  it('keeps the rendering of a base in use while hundreds of one-off hosts pass', () => {
    // Given a base asked for twice (a real client: its rendering is kept)
    const clock = new ManualClock();
    const documents = new DocumentsService(buildConfig({}), clock, serviceKey);
    const legit = documents.bytes('manual', 'http://chat.example:8080');
    expect(documents.bytes('manual', 'http://chat.example:8080')).toBe(legit);
    // When 300 distinct Host values are sent, a second apart
    for (let i = 0; i < 300; i++) {
      clock.advanceMs(1000);
      documents.bytes('manual', `http://rotating-${i}.example`);
    }
    // Then the base in use still gets the very same bytes (not a fresh rendering)
    expect(documents.bytes('manual', 'http://chat.example:8080')).toBe(legit);
    expect(legit!.toString('utf8')).toContain('http://chat.example:8080/');
  });

  it('renders at most 16 unseen bases a second; past that a one-off host gets relative links', () => {
    const documents = new DocumentsService(buildConfig({}), new ManualClock(), serviceKey);
    const relative = documents.bytes('openapi', '');
    const served = Array.from({ length: 200 }, (_, i) =>
      documents.bytes('openapi', `http://burst-${i}.example`),
    );
    const renderedOwn = served.filter((body) => body !== relative);
    expect(renderedOwn).toHaveLength(16);
    expect(served.slice(16).every((body) => body === relative)).toBe(true);
    expect(relative!.toString('utf8')).not.toContain('burst-');
  });

  it('uses one rendering for every Host when CHAT_PUBLIC_URL is set', () => {
    const documents = new DocumentsService(
      buildConfig({ publicUrl: 'https://chat.example' }),
      new ManualClock(),
      serviceKey,
    );
    // The controller resolves every Host to the public URL; the cache then holds one base
    const first = documents.bytes('manual', 'https://chat.example');
    for (let i = 0; i < 100; i++) documents.bytes('manual', 'https://chat.example');
    expect(documents.bytes('manual', 'https://chat.example')).toBe(first);
  });
});
