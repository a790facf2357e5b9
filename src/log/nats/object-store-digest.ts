import { setSha256Backend } from '@nats-io/obj';

let chosen = false;

/**
 * The object store client hashes every object it puts and gets; its default is a pure-JS SHA-256
 * (made for browsers), ~1 s per 40 MB on this machine, on the event loop. Node's own is the same
 * digest. The choice is process-wide, so it is made once: a later choice (jest's VM cannot run the
 * client's dynamic import of node:crypto, so in-process tests pick the pure-JS one) is kept.
 */
export function useNodeSha256(): void {
  if (chosen) return;
  chosen = true;
  setSha256Backend('native');
}
