import { parentPort } from 'node:worker_threads';
import { verifyEd25519 } from '../ed25519-verifier';
import { decodeBatch } from './verify-batch.codec';

/**
 * Worker-thread entry of the verify pool: answers each batch with one verdict byte per item (1 =
 * accepted), computed by the same verifyEd25519 the event loop would run, so verdicts cannot differ.
 * Each worker keeps its own imported-key cache.
 */
export interface VerifyBatchRequest {
  readonly id: number;
  readonly batch: ArrayBuffer;
}

export interface VerifyBatchReply {
  readonly id: number;
  readonly verdicts: Uint8Array;
}

const port = parentPort;
if (port === null) throw new Error('ed25519-verify.worker must run in a worker thread');

port.on('message', ({ id, batch }: VerifyBatchRequest) => {
  const items = decodeBatch(batch);
  const verdicts = new Uint8Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const { publicKey, message, signature } = items[i];
    verdicts[i] = verifyEd25519(publicKey, message, signature) ? 1 : 0;
  }
  const reply: VerifyBatchReply = { id, verdicts };
  port.postMessage(reply);
});
