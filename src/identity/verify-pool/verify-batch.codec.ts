/**
 * One batch of Ed25519 verifications as a single ArrayBuffer, so a batch crosses to a worker thread
 * as one message with no per-item structured clone. It is copied, not transferred: for batches of a
 * few hundred bytes a transfer (detach + new backing store) cost the event loop ~5× more than the
 * copy (bench/README, optimisation log). Layout, repeated per item:
 *
 *   u32 little-endian message length | 32-byte public key | 64-byte signature R‖S | message bytes
 *
 * Only 32-byte keys and 64-byte signatures are encoded (the pool answers other lengths itself, as
 * verifyEd25519 does: false).
 */
export interface VerifyItem {
  readonly publicKey: Uint8Array;
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
}

const HEADER_BYTES = 4 + 32 + 64;

export function encodeBatch(items: readonly VerifyItem[]): ArrayBuffer {
  let total = 0;
  for (const item of items) total += HEADER_BYTES + item.message.byteLength;
  const buffer = new ArrayBuffer(total);
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  let at = 0;
  for (const item of items) {
    view.setUint32(at, item.message.byteLength, true);
    bytes.set(item.publicKey, at + 4);
    bytes.set(item.signature, at + 36);
    bytes.set(item.message, at + HEADER_BYTES);
    at += HEADER_BYTES + item.message.byteLength;
  }
  return buffer;
}

/** The items of an encoded batch, as views into `buffer` (no copies). */
export function decodeBatch(buffer: ArrayBuffer): VerifyItem[] {
  const view = new DataView(buffer);
  const items: VerifyItem[] = [];
  for (let at = 0; at < buffer.byteLength;) {
    const length = view.getUint32(at, true);
    items.push({
      publicKey: new Uint8Array(buffer, at + 4, 32),
      signature: new Uint8Array(buffer, at + 36, 64),
      message: new Uint8Array(buffer, at + HEADER_BYTES, length),
    });
    at += HEADER_BYTES + length;
  }
  return items;
}
