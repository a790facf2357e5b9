import { Inject, Injectable } from '@nestjs/common';
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { generateSigningKey, SigningKey, signingKeyFromSeed } from './signing-key';
import { BadSigningSeedError } from './errors/bad-signing-seed.error';
import { ServiceKeyFileError } from './errors/service-key-file.error';

/** Where the key lives when CHAT_SERVICE_KEY_FILE is empty. */
export const DEFAULT_SERVICE_KEY_FILE = 'service-key';

/**
 * The service's own Ed25519 identity (issue 29): what it signs room heads with. The seed is read from
 * CHAT_SERVICE_KEY_FILE (one file shared by a cluster's nodes, so every node signs as one did:key) or
 * from `<root>/service-key`, created on first start with mode 0600 and exclusively (two processes
 * starting on one fresh directory cannot end up with different keys on disk).
 */
@Injectable()
export class ServiceKey {
  private readonly key: SigningKey;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = loadServiceKey(config);
  }

  get did(): string {
    return this.key.did;
  }

  /** The canonical base64url Ed25519 signature over the UTF-8 bytes of `payload`. */
  sign(payload: string): string {
    return this.key.sign(payload);
  }
}

function loadServiceKey(config: AppConfig): SigningKey {
  if (config.serviceKeyFile !== '') {
    if (!existsSync(config.serviceKeyFile)) {
      throw new ServiceKeyFileError(
        `CHAT_SERVICE_KEY_FILE ${config.serviceKeyFile} does not exist (create one with npm run keygen)`,
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
      throw new ServiceKeyFileError(`service key file ${path} does not hold a seed of 64 hex digits`);
    }
    throw error;
  }
}
