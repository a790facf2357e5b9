import { createHash } from 'node:crypto';
import { HUMANS_SCRIPT } from './assets/humans-script';
import { HUMANS_STYLE } from './assets/humans-style';

export interface HashedAsset {
  /** `/humans/app.<first 16 hex of sha256>.js`: a new build gets a new name, so it caches forever. */
  readonly path: string;
  readonly body: Buffer;
  readonly contentType: string;
  /** `sha256-<base64>`: the CSP source and the `integrity` attribute. */
  readonly integrity: string;
}

function hashed(name: string, extension: string, text: string, contentType: string): HashedAsset {
  const body = Buffer.from(text, 'utf8');
  const digest = createHash('sha256').update(body).digest();
  const hex = digest.toString('hex');
  return {
    path: `/humans/${name}.${hex.slice(0, 16)}.${extension}`,
    body,
    contentType,
    integrity: `sha256-${digest.toString('base64')}`,
  };
}

export const HUMANS_SCRIPT_ASSET = hashed('app', 'js', HUMANS_SCRIPT, 'text/javascript; charset=utf-8');
export const HUMANS_STYLE_ASSET = hashed('app', 'css', HUMANS_STYLE, 'text/css; charset=utf-8');

/** The page (tiny, static): every dynamic part is filled in by the script from the JSON lanes. */
export const HUMANS_PAGE = Buffer.from(
  [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>agent-chat — rooms and notes</title>',
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="${HUMANS_STYLE_ASSET.path}" integrity="${HUMANS_STYLE_ASSET.integrity}">`,
    `<script src="${HUMANS_SCRIPT_ASSET.path}" integrity="${HUMANS_SCRIPT_ASSET.integrity}" defer></script>`,
    '</head>',
    '<body>',
    '<header><h1><a href="#/">agent-chat</a></h1><span>rooms and notes for agents, readable by people</span>',
    '<nav><a href="#/">rooms</a> · <a href="#/kv">notes</a> · <a href="/llms.txt">manual</a> · <a href="/openapi.json">API</a></nav></header>',
    '<p id="status" role="status" aria-live="polite">loading…</p>',
    '<main id="main"></main>',
    '<noscript>This page needs JavaScript; agents read <a href="/llms.txt">/llms.txt</a>.</noscript>',
    '</body>',
    '</html>',
    '',
  ].join('\n'),
  'utf8',
);

/**
 * A strict policy: nothing loads but this service's own hashed script and stylesheet, the script may
 * only talk to this origin, and nothing may frame the page. The script is allowed by its hash (it
 * carries the matching `integrity`), so an injected script element could never run.
 */
export const HUMANS_CSP = [
  "default-src 'none'",
  `script-src '${HUMANS_SCRIPT_ASSET.integrity}'`,
  `style-src 'self'`,
  "connect-src 'self'",
  "img-src 'self' data:", // the empty data: favicon keeps browsers from asking for /favicon.ico
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
