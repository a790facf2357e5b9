import { buildConfig, loadConfig } from '../../../src/config/load-config';
import { noteCaps } from '../../../src/notes/note-caps';

describe('note caps', () => {
  it('default to max rooms per namespace and 32 × max rooms in total', () => {
    expect(noteCaps(buildConfig({}))).toEqual({ perNamespace: 5120, total: 163_840 });
    expect(noteCaps(buildConfig({ maxRooms: 10 }))).toEqual({ perNamespace: 10, total: 320 });
  });

  it('take the knobs, floored at max rooms and 4 × max rooms', () => {
    const env = { CHAT_MAX_ROOMS: '100', CHAT_MAX_NOTES_PER_NS: '250', CHAT_MAX_NOTES_TOTAL: '1000' };
    expect(noteCaps(loadConfig(env))).toEqual({ perNamespace: 250, total: 1000 });
    expect(noteCaps(buildConfig({ maxRooms: 100, maxNotesPerNs: 5, maxNotesTotal: 7 }))).toEqual({
      perNamespace: 100,
      total: 400,
    });
  });
});
