import { AppConfig } from '../config/app-config';

export interface NoteCaps {
  readonly perNamespace: number;
  readonly total: number;
}

/**
 * The effective note caps (contract §10.3, §16), derived in this one place because both default to
 * multiples of the room cap: per namespace `CHAT_MAX_NOTES_PER_NS` (default and floor = max rooms),
 * in total `CHAT_MAX_NOTES_TOTAL` (default 32 × max rooms, floor 4 × max rooms). 0 means the default.
 */
export function noteCaps(config: Pick<AppConfig, 'maxRooms' | 'maxNotesPerNs' | 'maxNotesTotal'>): NoteCaps {
  const rooms = config.maxRooms;
  return {
    perNamespace: Math.max(config.maxNotesPerNs || rooms, rooms),
    total: Math.max(config.maxNotesTotal || 32 * rooms, 4 * rooms),
  };
}
