#!/usr/bin/env node
// verify-export.mjs: checks a room export against a signed head of an agent-chat service (issue 29).
//
// One file, no dependencies beyond Node.js (20+) itself: copy it anywhere and run
//   node verify-export.mjs <export.jsonl> <head.json> [--previous <older head.json>]
//        [--previous-export <older export.jsonl>] [--room <room>] [--did <did:key>] [--anchor <hex>]
//
// It checks that every line is JSON with the next seq, that the hash chain from the head's anchor over
// the export's bytes reaches the head's hash at its last_seq, the head's Ed25519 signature, and every
// signed record's own signature; with --previous, that the room only grew since the older head.
// Definitions (docs/operations.md, "A record anyone can verify"), repeated here on purpose:
//   h0 = SHA-256("agent-chat room chain v1\n<room>\n<generation>\n"), hN = SHA-256(hN-1 || line N + "\n")
//   head signature: Ed25519 over "agent-chat room head v1\n" + room, generation, first_seq, last_seq,
//   anchor, head, time, service_did, each followed by "\n"
//   signed record: Ed25519 by its did:key `from` over "<room>|<nonce as sent>|<text>"
// Exit 0: verified (one line). Exit 1: a problem (one line saying which). Exit 2: usage.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

class Problem extends Error {}
class Usage extends Error {}

const USAGE =
  'usage: verify-export <export.jsonl> <head.json> [--previous <older head.json>] ' +
  '[--previous-export <older export.jsonl>] [--room <room>] [--did <did:key>] [--anchor <64 hex>]';
const HEX = /^[0-9a-f]{64}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{85}[AQgw]$/;
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function parseArgs(argv) {
  const options = { positional: [] };
  const flags = {
    '--previous': 'previous',
    '--previous-export': 'previousExport',
    '--room': 'room',
    '--did': 'did',
    '--anchor': 'anchor',
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') throw new Usage('');
    if (arg in flags) {
      if (i + 1 >= argv.length) throw new Usage(`${arg} needs a value`);
      options[flags[arg]] = argv[++i];
    } else if (arg.startsWith('--')) throw new Usage(`unknown option ${arg}`);
    else options.positional.push(arg);
  }
  if (options.positional.length !== 2) throw new Usage('give an export file and a head file');
  if (options.anchor !== undefined && !HEX.test(options.anchor))
    throw new Usage('--anchor takes 64 lowercase hex digits');
  return options;
}

function readInput(path, what) {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Problem(`cannot read the ${what} ${path}: ${error.code ?? error.message}`);
  }
}

const sha256 = (...parts) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};
const chainStart = (room, generation) =>
  sha256(Buffer.from(`agent-chat room chain v1\n${room}\n${generation}\n`, 'utf8'));

function decodeBase58(text) {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  const bytes = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  for (const char of text) {
    if (char !== '1') break;
    bytes.unshift(0);
  }
  return Buffer.from(bytes);
}

/** The Ed25519 public key of a did:key, or null; decoded once per did (signers sign many records). */
const publicKeys = new Map();
function didPublicKey(did) {
  if (!publicKeys.has(did)) publicKeys.set(did, decodeDidPublicKey(did));
  return publicKeys.get(did);
}

function decodeDidPublicKey(did) {
  if (typeof did !== 'string' || !/^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{44}$/.test(did)) return null;
  const decoded = decodeBase58(did.slice('did:key:z'.length));
  if (decoded === null || decoded.length !== 34 || decoded[0] !== 0xed || decoded[1] !== 0x01) return null;
  try {
    return createPublicKey({
      key: Buffer.concat([SPKI_ED25519, decoded.subarray(2)]),
      format: 'der',
      type: 'spki',
    });
  } catch {
    return null;
  }
}

function signatureVerifies(did, payload, signature) {
  const key = didPublicKey(did);
  if (key === null || typeof signature !== 'string' || !SIGNATURE.test(signature)) return false;
  try {
    return verify(null, Buffer.from(payload, 'utf8'), key, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}

function headPayload(head) {
  const fields = [
    head.room,
    head.generation,
    head.first_seq,
    head.last_seq,
    head.anchor,
    head.head,
    head.time,
    head.service_did,
  ];
  return `agent-chat room head v1\n${fields.join('\n')}\n`;
}

/** A head file, parsed, shaped and its signature checked. */
function readHead(path, what, did) {
  const text = readInput(path, what).toString('utf8');
  let head;
  try {
    head = JSON.parse(text);
  } catch {
    throw new Problem(`the ${what} ${path} is not JSON`);
  }
  const ints = ['generation', 'first_seq', 'last_seq'];
  if (
    head === null ||
    typeof head !== 'object' ||
    typeof head.room !== 'string' ||
    ints.some((f) => !Number.isSafeInteger(head[f]) || head[f] < 0) ||
    !HEX.test(head.anchor) ||
    !HEX.test(head.head) ||
    typeof head.time !== 'string' ||
    typeof head.service_did !== 'string' ||
    typeof head.signature !== 'string'
  ) {
    throw new Problem(
      `the ${what} ${path} is not a room head (room, generation, first_seq, last_seq, anchor, head, time, service_did, signature)`,
    );
  }
  if (did !== undefined && head.service_did !== did) {
    throw new Problem(`the ${what} is signed by ${head.service_did}, not by ${did}`);
  }
  if (!signatureVerifies(head.service_did, headPayload(head), head.signature)) {
    throw new Problem(`the ${what}'s signature does not verify under ${head.service_did}`);
  }
  return head;
}

/** The export's lines as { seq, bytes, record, raw, line } (1-based line numbers), checked for shape and order. */
function* exportLines(bytes, what) {
  let start = 0;
  let line = 0;
  let previousSeq = null;
  while (start < bytes.length) {
    line++;
    const newline = bytes.indexOf(10, start);
    if (newline < 0) throw new Problem(`${what} line ${line}: truncated (no newline at the end of the file)`);
    const lineBytes = bytes.subarray(start, newline + 1);
    const raw = lineBytes.subarray(0, lineBytes.length - 1).toString('utf8');
    let record;
    try {
      record = JSON.parse(raw);
    } catch {
      throw new Problem(`${what} line ${line}: not JSON (truncated or damaged)`);
    }
    if (record === null || typeof record !== 'object' || !Number.isSafeInteger(record.seq)) {
      throw new Problem(`${what} line ${line}: not a record (no integer seq)`);
    }
    if (previousSeq !== null && record.seq !== previousSeq + 1) {
      const kind = record.seq <= previousSeq ? 'reordered or repeated' : 'missing records';
      throw new Problem(
        `${what} line ${line}: seq ${record.seq} where ${previousSeq + 1} was expected (${kind})`,
      );
    }
    previousSeq = record.seq;
    yield { line, seq: record.seq, bytes: lineBytes, record, raw };
    start = newline + 1;
  }
}

/** A signed record's own signature; the nonce as sent may have had leading zeros (1-19 digits). */
function recordSignatureVerifies(room, entry) {
  const nonce = /"nonce":(\d+)/.exec(entry.raw)?.[1];
  if (nonce === undefined || typeof entry.record.text !== 'string') return false;
  for (let width = nonce.length; width <= 19; width++) {
    if (
      signatureVerifies(
        entry.record.from,
        `${room}|${nonce.padStart(width, '0')}|${entry.record.text}`,
        entry.record.sig,
      )
    )
      return true;
  }
  return false;
}

const short = (hex) => `${hex.slice(0, 12)}…`;

function run(argv) {
  const options = parseArgs(argv);
  const [exportPath, headPath] = options.positional;
  const head = readHead(headPath, 'head', options.did);
  if (options.room !== undefined && options.room !== head.room) {
    throw new Problem(`the head is for room ${head.room}, not ${options.room}`);
  }
  const previous =
    options.previous === undefined
      ? null
      : readHead(options.previous, 'previous head', options.did ?? head.service_did);
  if (previous !== null) {
    if (previous.room !== head.room)
      throw new Problem(`the previous head is for room ${previous.room}, the head for ${head.room}`);
    if (previous.generation !== head.generation) {
      throw new Problem(
        `the previous head is of generation ${previous.generation}, the head of ${head.generation}: the room was deleted and created again since, nothing links them`,
      );
    }
    if (previous.last_seq > head.last_seq)
      throw new Problem(
        `the previous head (seq ${previous.last_seq}) is newer than the head (seq ${head.last_seq})`,
      );
  }
  const bytes = readInput(exportPath, 'export');
  let hash =
    options.anchor !== undefined ? Buffer.from(options.anchor, 'hex') : Buffer.from(head.anchor, 'hex');
  const anchorHex = hash.toString('hex');
  let first = null;
  let last = null;
  let signed = 0;
  let headMatched = head.last_seq === 0 || head.first_seq === 0 ? head.anchor === head.head : false;
  // Trimmed exactly up to the previous head: the export's anchor is its hash.
  let previousMatched = previous === null || previous.head === anchorHex;
  let olderLines = null;
  if (previous !== null && options.previousExport !== undefined) {
    olderLines = new Map();
    for (const entry of exportLines(readInput(options.previousExport, 'previous export'), 'previous export'))
      olderLines.set(entry.seq, entry.bytes);
  }
  for (const entry of exportLines(bytes, 'export')) {
    if (first === null) {
      first = entry.seq;
      if (options.anchor === undefined && head.first_seq !== 0 && first !== head.first_seq) {
        throw new Problem(
          `export line 1: seq ${first}, but the head's chain starts at first_seq ${head.first_seq} (a partial export needs --anchor <its X-Chain-Anchor>)`,
        );
      }
      if (previous !== null && !previousMatched && first > previous.last_seq + 1) {
        throw new Problem(
          `cannot link the previous head: its last seq ${previous.last_seq} and the records up to seq ${first - 1} are no longer in the export (keep heads more often than the ring turns over)`,
        );
      }
      if (previous !== null && !previousMatched && first === previous.last_seq + 1) {
        throw new Problem(
          `the room did not only grow: the export's anchor (the chain before seq ${first}) is not the previous head's hash: a record up to seq ${previous.last_seq} was rewritten, removed or reordered`,
        );
      }
    }
    last = entry.seq;
    hash = sha256(hash, entry.bytes);
    if ('sig' in entry.record) {
      if (!recordSignatureVerifies(head.room, entry)) {
        throw new Problem(
          `export line ${entry.line}: the signature of seq ${entry.seq} does not verify (${head.room}|<nonce>|<text> by ${entry.record.from})`,
        );
      }
      signed++;
    }
    if (olderLines !== null && olderLines.has(entry.seq) && !olderLines.get(entry.seq).equals(entry.bytes)) {
      throw new Problem(
        `export line ${entry.line}: seq ${entry.seq} differs from the previous export: the record was rewritten`,
      );
    }
    if (previous !== null && entry.seq === previous.last_seq && hash.toString('hex') !== previous.head) {
      const from = Math.max(first, previous.first_seq);
      throw new Problem(
        `the room did not only grow: at seq ${entry.seq} the export chains to ${short(hash.toString('hex'))}, the previous head says ${short(previous.head)}: a record from seq ${from} to ${entry.seq} was rewritten, removed or reordered (give --previous-export to name it)`,
      );
    }
    if (previous !== null && entry.seq === previous.last_seq) previousMatched = true;
    if (entry.seq === head.last_seq) {
      if (hash.toString('hex') !== head.head) {
        throw new Problem(
          `chain: at seq ${entry.seq} (line ${entry.line}) the export hashes to ${short(hash.toString('hex'))}, the head says ${short(head.head)}: a record was changed, or the head is of another room or generation`,
        );
      }
      headMatched = true;
    }
  }
  if (first === null && head.last_seq !== 0 && head.first_seq !== 0)
    throw new Problem(`the export is empty, the head covers seq ${head.first_seq} to ${head.last_seq}`);
  if (!headMatched)
    throw new Problem(
      `truncated: the export ends at seq ${last}, the head covers up to seq ${head.last_seq}`,
    );
  if (!previousMatched)
    throw new Problem(`the export does not reach the previous head's seq ${previous.last_seq}`);
  const past =
    last !== null && last > head.last_seq ? `, ${last - head.last_seq} record(s) past the head` : '';
  const grew =
    previous === null
      ? ''
      : `; grew from seq ${previous.last_seq} to ${head.last_seq} since the previous head`;
  return `verify-export: OK: room ${head.room} generation ${head.generation}, seq ${first ?? '-'} to ${last ?? '-'} chain to the head signed by ${head.service_did}, ${signed} signed record(s) verify${past}${grew}`;
}

try {
  process.stdout.write(`${run(process.argv.slice(2))}\n`);
} catch (error) {
  if (error instanceof Usage) {
    process.stderr.write(`${error.message ? `verify-export: ${error.message}\n` : ''}${USAGE}\n`);
    process.exit(error.message ? 2 : 0);
  }
  const message = error instanceof Problem ? error.message : `unexpected failure: ${error?.message ?? error}`;
  process.stderr.write(`verify-export: ${message}\n`);
  process.exit(1);
}
