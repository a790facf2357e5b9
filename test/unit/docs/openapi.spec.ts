import { generateSigningKey } from '../../../src/identity/signing-key';
import { buildConfig } from '../../../src/config/load-config';
import { docContext } from '../../../src/docs/doc-context';
import { openApiDocument } from '../../../src/docs/openapi/openapi.document';
import { OPERATION_DETAILS } from '../../../src/docs/openapi/operation-details';
import { ROUTES } from '../../../src/http/routes/route-table';
import { openApiProblems } from '../../support/openapi-structure';

describe('OpenAPI generated from the route table', () => {
  const doc = openApiDocument(docContext(buildConfig({}), '', generateSigningKey().did)) as Record<
    string,
    unknown
  >;
  const paths = doc.paths as Record<string, Record<string, unknown>>;

  it('has exactly one path per route, with an operation per method', () => {
    expect(Object.keys(paths)).toEqual(ROUTES.map((route) => route.template));
    for (const route of ROUTES) {
      expect(Object.keys(paths[route.template]).sort()).toEqual(
        route.methods
          .filter((m) => m === 'GET' || m === 'POST')
          .map((m) => m.toLowerCase())
          .sort(),
      );
    }
  });

  it('details only operations the route table has', () => {
    const ids = new Set(ROUTES.map((route) => route.operationId));
    for (const id of Object.keys(OPERATION_DETAILS)) expect(ids).toContain(id);
  });

  it('is structurally valid OpenAPI 3.1, relative to "/" when the origin is unknown', () => {
    expect(openApiProblems(doc)).toEqual([]);
    expect(doc.servers).toEqual([{ url: '/' }]);
  });

  it('has a checker that notices what it claims to check', () => {
    const broken = {
      openapi: '3.0.0',
      info: { title: 'x' },
      paths: {
        '/a/{id}': { get: { responses: { '200': { $ref: '#/components/responses/Missing' } } } },
        '/b': {
          post: { operationId: 'same', responses: {} },
          get: { operationId: 'same', responses: { '200': {} } },
        },
      },
    };
    expect(openApiProblems(broken)).toEqual([
      'openapi is 3.0.0, not 3.1.0',
      'info.title and info.version are required strings',
      'GET /a/{id} has no operationId',
      'GET /a/{id} 200 has no description',
      'GET /a/{id} does not declare path {id}',
      'GET /b 200 has no description',
      'operationId same is not unique',
      'POST /b has no responses',
      '$ref #/components/responses/Missing does not resolve',
    ]);
  });
});
