// The baseline is the ceiling: always the newest Fastify 5 (an npm alias), whatever the service runs on.
import Fastify from 'fastify-baseline';

/**
 * The ceiling the service is measured against, in the same run: bare Fastify serving precomputed
 * bodies (`GET /body?bytes=N&type=text|json`), or the very bytes and content type of one of the
 * service's replies (`PUT /same/<name>` stores them, `GET /same/<name>` serves them), parsing a JSON POST the way a write arrives
 * (`POST /json`), and holding requests until released (`GET /hold`, `POST /release`) for the
 * long-poll comparison. Bodies are cached Buffers: this is the fastest a Fastify server answers.
 */
const app = Fastify({ logger: false });
const bodies = new Map<string, Buffer>();
const held: Array<() => void> = [];
const same = new Map<string, { readonly type: string; readonly body: Buffer }>();

app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) =>
  done(null, body),
);

app.get('/body', async (request, reply) => {
  const { bytes = '300', type = 'text' } = request.query as { bytes?: string; type?: string };
  const key = `${type}:${bytes}`;
  let body = bodies.get(key);
  if (body === undefined) {
    body = Buffer.alloc(Number(bytes), 'x');
    bodies.set(key, body);
  }
  reply.header('content-type', type === 'json' ? 'application/json' : 'text/plain; charset=utf-8');
  return body;
});

app.put('/same/:name', async (request) => {
  const { name } = request.params as { name: string };
  const type = String(request.headers['x-served-type'] ?? 'text/plain; charset=utf-8');
  same.set(name, { type, body: request.body as Buffer });
  return { stored: (request.body as Buffer).length };
});

app.get('/same/:name', async (request, reply) => {
  const stored = same.get((request.params as { name: string }).name);
  if (stored === undefined) return reply.code(404).send('not stored\n');
  reply.header('content-type', stored.type);
  return stored.body;
});

app.post('/json', async (request) => {
  const body = request.body as { text?: unknown };
  return typeof body?.text === 'string' ? { ok: true, length: body.text.length } : { ok: false };
});

app.get('/hold', (_request, reply) => {
  held.push(() => reply.header('content-type', 'text/plain').send('released\n'));
});

app.post('/release', async () => {
  const waiting = held.splice(0);
  for (const release of waiting) release();
  return { released: waiting.length };
});

app.get('/held', async () => ({ held: held.length }));

app.listen({ port: 0, host: '127.0.0.1' }).then((url) => process.stdout.write(`listening on ${url}\n`));
