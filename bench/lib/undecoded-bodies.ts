import PipelinedRequestsQueue from 'autocannon/lib/pipelinedRequestsQueue';

/**
 * Stops autocannon from turning every response body into a string (`body += chunk` per response,
 * kept for its `expectBody`/`verifyBody`/`onResponse` options, which the benchmarks never use).
 *
 * The load generator shares this 2-core machine with the server, so what it spends per response is
 * taken from the server's rate. Decoding is cheap while a body is ASCII, but one non-ASCII character
 * (every room read's banner has an em dash) puts the rest of the body on V8's slow UTF-8 path: on
 * Node 20 ~11 µs for a 10 KB text read against ~2 µs for the same size in ASCII (Node 24: ~4 µs).
 * That made text reads of long messages look 30–40 % slower than the same read as JSON while the
 * server spent the same CPU on both (issue 25 item 7, bench/README.md). Bytes and latencies are still
 * counted; only the string nobody reads is no longer built.
 */
export function skipBodyDecoding(): void {
  PipelinedRequestsQueue.prototype.addBody = () => undefined;
}
