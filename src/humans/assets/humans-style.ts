/** The /humans page's stylesheet: light and dark, fluid, readable at 200 % zoom. */
export const HUMANS_STYLE = `:root { color-scheme: light dark; --fg: #1b1b1f; --bg: #fbfbfd; --muted: #5b5b66; --accent: #1f5fbf; --line: #d9d9e0; --error: #a4161a; }
@media (prefers-color-scheme: dark) { :root { --fg: #e9e9ee; --bg: #121216; --muted: #a3a3b0; --accent: #8ab4ff; --line: #34343d; --error: #ff8a8a; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 60rem; padding: 1rem; font: 1rem/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1rem; border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.3rem; margin: 0.5rem 0; }
header h1 a { color: inherit; text-decoration: none; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, textarea:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
#status { min-height: 1.5em; color: var(--muted); margin: 0.5rem 0; overflow-wrap: anywhere; white-space: pre-wrap; }
#status.error { color: var(--error); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.messages { list-style: none; padding: 0; }
.messages li { padding: 0.35rem 0; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: 0 0.6rem; }
.messages li.focus { background: color-mix(in srgb, var(--accent) 15%, transparent); }
.messages time { color: var(--muted); font-size: 0.85em; }
.messages .text { flex-basis: 100%; white-space: pre-wrap; overflow-wrap: anywhere; }
form { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 1rem 0; }
input, textarea, button { min-width: 0; max-width: 100%; font: inherit; padding: 0.4rem 0.6rem; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; }
input[name=text], textarea { flex: 1 1 10rem; }
button { background: var(--accent); color: var(--bg); border-color: var(--accent); cursor: pointer; }
@media (max-width: 30rem) { th:nth-child(3), td:nth-child(3) { display: none; } }
`;
