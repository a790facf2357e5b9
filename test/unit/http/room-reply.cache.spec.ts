import { RoomReplyCache } from '../../../src/rooms/http/room-reply.cache';

const reply = (bytes: number): Buffer => Buffer.alloc(bytes, 'x');

describe('RoomReplyCache', () => {
  it('serves a reply only at the room version it was rendered for', () => {
    const cache = new RoomReplyCache(1024);
    cache.set('lobby', 3, 'j|50|', Buffer.from('v3'));
    expect(cache.get('lobby', 3, 'j|50|')?.plain.toString()).toBe('v3');
    expect(cache.get('lobby', 4, 'j|50|')).toBeUndefined();
    expect(cache.get('lobby', 3, 't|50|')).toBeUndefined();
    cache.set('lobby', 4, 't|50|', Buffer.from('v4'));
    expect(cache.get('lobby', 3, 'j|50|')).toBeUndefined(); // the old version's variants are gone
  });

  it('stays bounded in rooms and in variants per room', () => {
    const cache = new RoomReplyCache(1 << 20);
    for (let i = 0; i < 5000; i++) cache.set(`room${i}`, 1, 'v', reply(1));
    expect(cache.size).toBe(4096);
    expect(cache.get('room0', 1, 'v')).toBeUndefined();
    expect(cache.get('room4999', 1, 'v')).toBeDefined();
    for (let i = 0; i < 40; i++) cache.set('busy', 1, `t|${i}|`, reply(1));
    expect(cache.get('busy', 1, 't|39|')).toBeDefined();
    expect(cache.get('busy', 1, 't|0|')).toBeUndefined();
  });

  it('drops least recently used rooms once the cached bytes exceed the budget', () => {
    const cache = new RoomReplyCache(250);
    cache.set('a', 1, 'v', reply(100));
    cache.set('b', 1, 'v', reply(100));
    cache.get('a', 1, 'v'); // a is now the most recent
    cache.set('c', 1, 'v', reply(100));
    expect(cache.get('b', 1, 'v')).toBeUndefined();
    expect(cache.get('a', 1, 'v')).toBeDefined();
    expect(cache.get('c', 1, 'v')).toBeDefined();
    expect(cache.bytes).toBe(200);
  });

  it('releases the bytes of a stale version and of a replaced variant', () => {
    const cache = new RoomReplyCache(1000);
    cache.set('a', 1, 'v', reply(300));
    cache.set('a', 1, 'v', reply(100));
    expect(cache.bytes).toBe(100);
    cache.set('a', 2, 'w', reply(50));
    expect(cache.bytes).toBe(50);
  });

  it('counts encoded forms against the budget while their body is held, and releases them with it', () => {
    const cache = new RoomReplyCache(100_000);
    const text = Buffer.from('[1] 12:00:00 alice: hello there, this repeats nicely\n'.repeat(100));
    const body = cache.set('a', 1, 'v', text)!;
    const br = body.in('br')!;
    expect(br.length).toBeLessThan(text.length / 4);
    expect(body.in('br')).toBe(br); // made once, then reused
    const gzip = body.in('gzip')!;
    expect(cache.bytes).toBe(text.length + br.length + gzip.length);
    cache.set('a', 1, 'v', reply(10)); // replacing the variant releases its encodings too
    expect(cache.bytes).toBe(10);
    body.in('br'); // a replaced body no longer counts, even if a request still holds it
    expect(cache.bytes).toBe(10);
    const stale = cache.set('a', 1, 'w', text)!;
    cache.set('a', 2, 'v', reply(20)); // a new version drops the old one
    stale.in('gzip');
    expect(cache.bytes).toBe(20);
  });

  it('never caches a reply larger than the whole budget (0 turns caching off)', () => {
    const off = new RoomReplyCache(0);
    expect(off.set('a', 1, 'v', reply(1))).toBeNull();
    expect(off.get('a', 1, 'v')).toBeUndefined();
    expect(off.bytes).toBe(0);
  });
});
