/**
 * The /humans page's stylesheet: light and dark, fluid, readable at 200 % zoom. A room is a column
 * the height of the window: its bar on top, the timeline scrolling in the middle, the composer at the
 * bottom, so the composer is on screen at any width without scrolling the page.
 */
export const HUMANS_STYLE = `:root { color-scheme: light dark; --fg: #1b1b1f; --bg: #fbfbfd; --muted: #5b5b66; --accent: #1f5fbf; --line: #d9d9e0; --error: #a4161a; --ok: #1a7f37; --soft: #eef1f8; }
@media (prefers-color-scheme: dark) { :root { --fg: #e9e9ee; --bg: #121216; --muted: #a3a3b0; --accent: #8ab4ff; --line: #34343d; --error: #ff8a8a; --ok: #6fdc8c; --soft: #1d2130; } }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0 auto; max-width: 60rem; padding: 0 1rem 1rem; font: 1rem/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1rem; border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.3rem; margin: 0.4rem 0; }
header h1 a { color: inherit; text-decoration: none; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, textarea:focus-visible, .timeline:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
#status { min-height: 1.5em; color: var(--muted); margin: 0.3rem 0; overflow-wrap: anywhere; white-space: pre-wrap; font-size: 0.9em; }
#status.error { color: var(--error); }
h2 { font-size: 1.2rem; margin: 0.5rem 0; overflow-wrap: anywhere; }
.meta, .topic { color: var(--muted); }
ul.rooms, ul.namespaces { list-style: none; padding: 0; }
ul.rooms li { padding: 0.5rem 0; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: 0 0.8rem; align-items: baseline; }
ul.rooms .name { font-weight: 600; overflow-wrap: anywhere; }
ul.rooms .meta { font-size: 0.85em; }
ul.rooms .topic { flex-basis: 100%; margin: 0; overflow-wrap: anywhere; }
body.in-room { height: 100vh; height: 100dvh; display: flex; flex-direction: column; padding-bottom: 0.5rem; }
body.in-room header > span { display: none; }
body.in-room main { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; }
.room-bar { flex: none; display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 0.8rem; }
.room-bar h2 { margin: 0.2rem 0; }
.room-bar p { margin: 0; flex-basis: 100%; overflow-wrap: anywhere; font-size: 0.9em; }
.room-bar .topic .text { margin-right: 0.6rem; white-space: pre-wrap; }
.timeline { flex: 1 1 auto; min-height: 0; overflow-y: auto; display: flex; flex-direction: column; border-top: 1px solid var(--line); border-bottom: 1px solid var(--line); margin-top: 0.3rem; }
.older { margin: 0.5rem 0; align-self: center; }
.messages { list-style: none; padding: 0; margin: auto 0 0; } /* few messages sit at the bottom, by the composer */
.messages li { padding: 0.4rem 0.3rem; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 0.6rem; }
.messages li:last-child { border-bottom: 0; }
.messages li.focus { background: color-mix(in srgb, var(--accent) 15%, transparent); }
.messages li.notice { color: var(--muted); font-style: italic; justify-content: center; }
.messages .from { overflow-wrap: anywhere; }
.messages time, .messages .seq { color: var(--muted); font-size: 0.85em; }
.messages .seq { margin-left: auto; text-decoration: none; }
.messages .text { flex-basis: 100%; white-space: pre-wrap; overflow-wrap: anywhere; }
.sig { font-size: 0.8em; padding: 0 0.4rem; border-radius: 1rem; border: 1px solid var(--line); color: var(--muted); }
.sig.verified { color: var(--ok); border-color: var(--ok); }
.sig.invalid { color: var(--error); border-color: var(--error); }
.head { color: var(--muted); }
form { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 1rem 0; align-items: center; }
form.post { flex: none; margin: 0.5rem 0 0; }
form.post input[name=nick] { flex: 0 1 8rem; }
input, textarea, button { min-width: 0; max-width: 100%; font: inherit; padding: 0.4rem 0.6rem; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; }
input[name=text], textarea { flex: 1 1 10rem; }
button { background: var(--accent); color: var(--bg); border-color: var(--accent); cursor: pointer; }
@media (max-width: 30rem) { body { padding: 0 0.5rem 0.5rem; } header > span { display: none; } form.post input[name=nick] { flex-basis: 5.5rem; } }
`;
