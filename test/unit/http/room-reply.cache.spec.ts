import { RoomReplyCache } from '../../../src/http/room-reply.cache';

describe('rendered room reply cache', () => {
  const body = (text: string): Buffer => Buffer.from(text);

  it('serves a reply only at the room version it was rendered for', () => {
    const cache = new RoomReplyCache();
    cache.set('lobby', 3, 'j|50|', body('v3'));
    expect(cache.get('lobby', 3, 'j|50|')?.toString()).toBe('v3');
    expect(cache.get('lobby', 4, 'j|50|')).toBeUndefined();
    expect(cache.get('lobby', 3, 't|50|')).toBeUndefined();
    cache.set('lobby', 4, 't|50|', body('v4'));
    expect(cache.get('lobby', 3, 'j|50|')).toBeUndefined(); // the old version's variants are gone
  });

  it('stays bounded in rooms and in variants per room', () => {
    const cache = new RoomReplyCache();
    for (let i = 0; i < 5000; i++) cache.set(`room${i}`, 1, 'v', body('x'));
    expect(cache.size).toBe(4096);
    expect(cache.get('room0', 1, 'v')).toBeUndefined();
    expect(cache.get('room4999', 1, 'v')).toBeDefined();
    for (let i = 0; i < 40; i++) cache.set('busy', 1, `t|${i}|`, body('x'));
    expect(cache.get('busy', 1, 't|39|')).toBeDefined();
    expect(cache.get('busy', 1, 't|0|')).toBeUndefined();
  });
});
