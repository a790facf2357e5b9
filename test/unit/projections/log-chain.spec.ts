import { createHash } from 'node:crypto';
import {
  LOG_CHAIN_START,
  LogChain,
  logChainLegacyAnchor,
  logChainNext,
} from '../../../src/projections/log-chain';

const sha256 = (...parts: Buffer[]): string =>
  createHash('sha256').update(Buffer.concat(parts)).digest('hex');

describe('the log chain (issue 29): its definition as docs/operations.md spells it', () => {
  it('L0 and L(n) = SHA-256(L(n-1) ‖ offset as 8-byte big-endian ‖ payload)', () => {
    expect(LOG_CHAIN_START).toBe(sha256(Buffer.from('agent-chat log chain v1\n')));
    const offset = Buffer.alloc(8);
    offset.writeBigUInt64BE(258n);
    const payload = Buffer.from('{"type":"note.set"}');
    expect(logChainNext(LOG_CHAIN_START, 258, payload)).toBe(
      sha256(Buffer.from(LOG_CHAIN_START, 'hex'), offset, payload),
    );
  });

  it('folds in order, survives a snapshot and restore, and starts at a stand-in anchor after an old checkpoint', () => {
    const chain = new LogChain();
    chain.fold(0, Buffer.from('a'));
    chain.fold(1, Buffer.from('b'));
    const copy = new LogChain();
    copy.restore(chain.snapshot());
    copy.startAt(2); // already there: nothing changes
    expect(copy.snapshot()).toEqual(chain.snapshot());
    expect(chain.snapshot().hash).toBe(
      logChainNext(logChainNext(LOG_CHAIN_START, 0, Buffer.from('a')), 1, Buffer.from('b')),
    );
    const legacy = new LogChain();
    legacy.startAt(40);
    expect(legacy.snapshot()).toEqual({
      offset: 40,
      hash: logChainLegacyAnchor(40),
      anchorOffset: 40,
      anchor: sha256(Buffer.from('agent-chat log chain v1\nfrom 40\n')),
    });
  });
});
