// The baseline is the ceiling: always the newest Fastify 5 (an npm alias), whatever the service runs on.
import Fastify from 'fastify-baseline';

/**
 * The ceiling the service is measured against, in the same run: bare Fastify serving precomputed
 * bodies (`GET /body?bytes=N&type=text|json`), parsing a JSON POST the way a write arrives
 * (`POST /json`), and holding requests until released (`GET /hold`, `POST /release`) for the
 * long-poll comparison. Bodies are cached Buffers: this is the fastest a Fastify server answers.
 */
const app = Fastify({ logger: false });
const bodies = new Map<string, Buffer>();
const held: Array<() => void> = [];

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
