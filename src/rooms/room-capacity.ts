import { AppConfig } from '../config/app-config';
import { BadRequestError } from '../common/errors/bad-request.error';

const MIB = 1024 * 1024;

/**
 * Capacity for new rooms (contract §8.8): existing rooms always take writes; a new one is refused
 * with 400 once the room count or the total room bytes reach their caps.
 */
export function assertRoomCapacity(
  config: Pick<AppConfig, 'maxRooms' | 'roomBytesTotal' | 'retentionSeconds' | 'stillbornSeconds'>,
  roomCount: number,
  roomBytes: number,
): void {
  if (roomCount >= config.maxRooms) {
    throw new BadRequestError(
      `room limit reached (${config.maxRooms} is the cap): write to an existing room instead (GET /rooms ` +
        `lists them). Rooms idle for ${Math.round(config.retentionSeconds / 86400)} days are reclaimed, and ` +
        `rooms still holding a single message after ${Math.round(config.stillbornSeconds / 3600)} hours.`,
    );
  }
  if (roomBytes >= config.roomBytesTotal) {
    throw new BadRequestError(
      `room storage is full (${Math.floor(roomBytes / MIB)} MiB used of a ${Math.floor(config.roomBytesTotal / MIB)} ` +
        'MiB budget): write to an existing room instead; idle rooms are reclaimed over time.',
    );
  }
}
