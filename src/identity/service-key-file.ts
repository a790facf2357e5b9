import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { BadSigningSeedError } from './errors/bad-signing-seed.error';
import { ServiceKeyFileError } from './errors/service-key-file.error';
import { generateSigningKey, SigningKey, signingKeyFromSeed } from './signing-key';

/** Where the key lives when CHAT_SERVICE_KEY_FILE is empty. */
export const DEFAULT_SERVICE_KEY_FILE = 'service-key';

/**
 * The service key named by the configuration, created on first start when none is named. main.ts calls
 * it before the application starts, so a missing or malformed key file is the one fatal start-up line.
 */
export function loadServiceKey(config: AppConfig): SigningKey {
  if (config.serviceKeyFile !== '') {
    if (!existsSync(config.serviceKeyFile)) {
      throw new ServiceKeyFileError(
        `CHAT_SERVICE_KEY_FILE=${config.serviceKeyFile}: no such file (write the seed line of npm run keygen into it)`,
      );
    }
    return readKey(config.serviceKeyFile);
  }
  const path = join(config.root, DEFAULT_SERVICE_KEY_FILE);
  if (existsSync(path)) return readKey(path);
  const key = generateSigningKey();
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeSync(fd, `${key.seedHex}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readKey(path); // another process won
    throw error;
  }
  return key;
}

function readKey(path: string): SigningKey {
  const text = readFileSync(path, 'utf8').trim();
  try {
    return signingKeyFromSeed(text);
  } catch (error) {
    if (error instanceof BadSigningSeedError) {
      throw new ServiceKeyFileError(
        `service key file ${path} (CHAT_SERVICE_KEY_FILE) does not hold a seed of 64 hex digits`,
      );
    }
    throw error;
  }
}
