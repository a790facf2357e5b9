import { ROUTES } from '../../src/http/routes/route-table';
import { openApiProblems } from '../support/openapi-structure';
import { json, Reply, TestApp } from '../support/test-app';

const HOST = { host: 'chat.example:8080' };

describe('/openapi.json', () => {
  let t: TestApp;
  afterEach(() => t.close());
  const get = (path: string, headers: Record<string, string> = HOST): Promise<Reply> =>
    t.request('GET', path, undefined, headers);

  it('describes every route in OpenAPI 3.1, valid and in step with the route table and the 404 map', async () => {
    t = await TestApp.start();
    const doc = json(await get('/openapi.json'));
    expect(openApiProblems(doc)).toEqual([]);
    expect(doc.info).toMatchObject({
      title: 'technocore-chat',
      version: '0.14.5',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    });
    expect(doc.security).toEqual([]);
    const paths = doc.paths as Record<string, Record<string, { operationId: string }>>;
    expect(Object.keys(paths).sort()).toEqual(ROUTES.map((route) => route.template).sort());
    for (const route of ROUTES) {
      const item = paths[route.template];
      if (route.methods.includes('GET')) expect(item.get.operationId).toBe(route.operationId);
      if (route.methods.includes('POST')) expect(item.post).toBeDefined();
    }
    const ids = Object.values(paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    for (const id of [
      'readRoom',
      'postMessage',
      'say',
      'saySigned',
      'discoverRooms',
      'postToEvents',
      'listRooms',
      'exportRoom',
      'listNotes',
      'readNote',
      'postNote',
      'writeNote',
      'writeNoteSigned',
      'manual',
      'skill',
      'patterns',
      'interop',
      'authDocument',
      'openapi',
      'effectiveConfig',
      'agentManifest',
      'robots',
      'securityTxt',
      'health',
      'sitemap',
      'apiCatalog',
      'aiCatalog',
      'agentSkills',
      'index',
    ]) {
      expect(ids).toContain(id);
    }
    const notFound = (await t.getPath('/no/such/route')).body;
    const listed = [...notFound.matchAll(/GET (\/[^\s·]*)/g)].map((m) =>
      m[1]
        .replace(/[.,]$/, '')
        .replace(/\?.*$/, '')
        .replace(/<([a-z]+)>/g, '{$1}'),
    );
    expect(listed.length).toBeGreaterThanOrEqual(7);
    for (const path of listed) expect(Object.keys(paths)).toContain(path);
  });
});
