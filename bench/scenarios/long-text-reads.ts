import { ChildServer } from '../lib/child-server';
import { compare, compareWithItself } from '../lib/compare';
import { BenchOptions, Row } from '../lib/context';
import { inParallel, postJson, sameBytes } from '../lib/http-client';

const ROOM = 'long150';
const MESSAGE_CHARS = 150;
const READ = `/r/${ROOM}?limit=50`;

/**
 * Row (1b), issue 25 item 7: the default read (text) against the same read as JSON, in a room of
 * 1,000 messages of 150 characters, where the text body is long enough for any cost that grows with
 * the text to show. Each format beside bare Fastify serving its very bytes, then text straight
 * against JSON, both served by the service in the same run: goal, text at JSON's rate (within the
 * 5 % the medians still move by between runs on this machine).
 */
export async function longTextReads(
  service: ChildServer,
  baseline: ChildServer,
  options: BenchOptions,
): Promise<Row[]> {
  await inParallel(1000, 32, (i) => {
    const head = `message ${i} `;
    const text = head + 'lorem ipsum dolor sit amet '.repeat(6).slice(0, MESSAGE_CHARS - head.length);
    return postJson(`${service.url}/r/${ROOM}`, { from: `writer${i % 7}`, text });
  });
  const rows: Row[] = [];
  const urls = { text: `${service.url}${READ}`, json: `${service.url}${READ}&format=json` };
  for (const format of ['json', 'text'] as const) {
    const same = await sameBytes(urls[format], baseline.url, `${ROOM}-${format}`);
    rows.push(
      ...(await compare(
        {
          scenario: `room read 50 (${format === 'json' ? 'JSON' : 'text'}), ${MESSAGE_CHARS}-char messages, ${same.bytes} B`,
          service: { server: service, load: { url: urls[format] } },
          baseline: { server: baseline, load: { url: same.url } },
          goalRatio: 0.65,
        },
        options,
      )),
    );
  }
  rows.push(
    ...(await compareWithItself(
      {
        scenario: `room read 50, ${MESSAGE_CHARS}-char messages: text vs JSON`,
        service: { server: service, load: { url: urls.text } },
        baseline: { server: service, load: { url: urls.json } },
        goalRatio: 0.95,
      },
      options,
      'the service itself, the same read as JSON',
    )),
  );
  return rows;
}
