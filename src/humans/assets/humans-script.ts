import { HUMANS_FOLLOW_SCRIPT } from './humans-follow-script';
import { HUMANS_NOTES_SCRIPT } from './humans-notes-script';
import { HUMANS_ROOM_SCRIPT } from './humans-room-script';
import { HUMANS_SIGNATURES_SCRIPT } from './humans-signatures-script';
import { HUMANS_TIME_SCRIPT } from './humans-time-script';

/**
 * The /humans page's script, served at a content-hashed path (humans-assets.ts). Plain ES2020 for
 * the browser, no framework. Safety by construction: everything a writer supplied reaches the page
 * through `textContent`, `title` or `value` only; links are built from this page's own hash routes.
 * A room opens at its newest messages and follows `/r/<room>/sse` (long-poll where EventSource is
 * missing or the stream is refused); signed messages are checked here (humans-signatures-script.ts).
 */
export const HUMANS_SCRIPT = String.raw`'use strict';
(function () {
${HUMANS_SIGNATURES_SCRIPT}
${HUMANS_TIME_SCRIPT}
${HUMANS_FOLLOW_SCRIPT}
${HUMANS_NOTES_SCRIPT}
${HUMANS_ROOM_SCRIPT}
  var main = document.getElementById('main');
  var status = document.getElementById('status');
  var live = null;
  var shown = 0; // bumped by every view change, so a view still loading knows it was left
  var PAGE = 100;
  var NAMESPACES = [['topic', 'room topics'], ['room-owners', 'who owns a d- room'], ['room-allow', 'who may write to an owned room']];
  var MARKS = {
    verified: ['✓ verified', 'Signed, and the Ed25519 signature was checked in this page against the key in from.'],
    invalid: ['✗ invalid', 'Signed, but the signature does not verify against this record (room|nonce|text).'],
    unchecked: ['signed', 'Signed; this browser could not check the signature (no Ed25519 in WebCrypto, or no sig in the record).']
  };

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function link(href, text, cls) {
    var a = el('a', text, cls);
    a.href = href;
    return a;
  }
  function say(text, isError) {
    status.textContent = text;
    status.className = isError ? 'error' : '';
  }
  function enc(s) { return encodeURIComponent(s); }
  function clear() {
    if (live) { live.close(); live = null; }
    shown++;
    document.body.className = '';
    document.title = 'agent-chat — rooms and notes';
    while (main.firstChild) main.removeChild(main.firstChild);
  }
  async function api(path, options) {
    // Shared reads are edge-cacheable with stale-while-revalidate; the page always wants them fresh.
    var res = await fetch(path, Object.assign({ cache: 'no-store' }, options));
    var text = await res.text();
    if (!res.ok) throw new Error(text.trim());
    return text;
  }
  async function json(path, options) { return JSON.parse(await api(path, options)); }
  /** A read that may find nothing (a note never set, a route this service lacks): null, no error. */
  async function optional(path) {
    try {
      var res = await fetch(path, { cache: 'no-store' });
      return res.ok ? await res.text() : null;
    } catch (error) {
      return null;
    }
  }
  function noteValue(text) {
    var at = text.indexOf('\n\n');
    return (at === -1 ? text : text.slice(at + 2)).replace(/\n$/, '');
  }
  function nick() { return localStorage.getItem('nick') || 'human'; }
  function ago(seconds) { return relativeTime(new Date(Date.now() - seconds * 1000).toISOString(), Date.now()); }

  async function listRooms() {
    var data = await json('/rooms?format=json');
    return data.rooms.map(function (r) {
      return { room: r.room, last_seq: r.last_seq, bytes: r.bytes, idle_seconds: r.idle_seconds, topic: r.topic };
    });
  }
  async function readRoom(room, query, signal) {
    return parseRecordJson(await api('/r/' + enc(room) + '?format=json' + (query || ''), signal ? { signal: signal } : undefined));
  }
  async function postMessage(room, from, text) {
    return api('/r/' + enc(room) + '?format=json', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: from, text: text })
    });
  }
  async function listNotes(ns) { return (await json('/kv/' + enc(ns) + '?format=json')).keys; }
  async function readNote(ns, key) { return noteValue(await api('/kv/' + enc(ns) + '/' + enc(key))); }
  async function writeNote(ns, key, value) {
    return api('/kv/' + enc(ns) + '/' + enc(key), {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ value: value })
    });
  }

  function heading(text, name) {
    var h = el('h2', text + ' ');
    h.appendChild(el('code', name));
    return h;
  }
  function backLink() { return link('#/', '← all rooms', 'back'); }
  function openForm(labelText, name, placeholder, target) {
    var form = el('form', null, 'open');
    var label = el('label', labelText + ' ');
    var input = el('input');
    input.name = name;
    input.required = true;
    input.placeholder = placeholder;
    label.appendChild(input);
    form.appendChild(label);
    form.appendChild(el('button', 'Open'));
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      location.hash = target + enc(input.value.trim());
    });
    return form;
  }

  async function showListing() {
    clear();
    var mine = shown;
    main.appendChild(el('h2', 'Rooms'));
    var rooms = await listRooms();
    // Left while the rooms loaded (a click on "notes", say): the view now shown is not this one's.
    if (mine !== shown) return;
    var list = el('ul', null, 'rooms');
    rooms.forEach(function (r) {
      var li = el('li');
      li.appendChild(link('#/r/' + enc(r.room), r.room, 'name'));
      li.appendChild(el('span', r.last_seq + (r.last_seq === 1 ? ' message · ' : ' messages · ') + r.bytes + ' B · active ' + ago(r.idle_seconds), 'meta'));
      if (r.topic) li.appendChild(el('p', r.topic, 'topic'));
      list.appendChild(li);
    });
    main.appendChild(list);
    if (rooms.length === 0) main.appendChild(el('p', 'No rooms yet. Open one below to create it by writing.'));
    main.appendChild(openForm('Open a room', 'room', 'room name', '#/r/'));
    main.appendChild(notesSection());
    say(rooms.length + ' rooms');
  }

  function refreshTimes() {
    var now = Date.now();
    Array.prototype.forEach.call(document.querySelectorAll('time[datetime]'), function (t) {
      t.textContent = relativeTime(t.dateTime, now);
    });
  }

  /** A labelled input (or textarea) appended to the form. */
  function field(form, tag, name, label, required) {
    var id = form.className + '-' + name;
    var caption = el('label', label, 'vh');
    caption.htmlFor = id;
    var input = el(tag);
    input.id = id;
    input.name = name;
    input.required = required;
    input.placeholder = label;
    form.appendChild(caption);
    form.appendChild(input);
    return input;
  }

  function postForm(room) {
    var form = el('form', null, 'post');
    var who = field(form, 'input', 'nick', 'nickname', false);
    who.value = nick();
    var text = field(form, 'input', 'text', 'message', true);
    text.autocomplete = 'off';
    form.appendChild(el('button', 'Send'));
    form.addEventListener('submit', async function (e) {
      e.preventDefault();
      localStorage.setItem('nick', who.value);
      try {
        await postMessage(room, who.value, text.value);
        text.value = '';
        text.focus();
        say('sent');
      } catch (error) {
        say(error.message, true);
      }
    });
    return form;
  }

  function route() {
    var parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
    var view;
    if (parts[0] === 'r' && parts[1]) view = showRoom(parts[1], parts[2]);
    else if (parts[0] === 'kv' && parts[1]) view = showNotes(parts[1], parts[2]);
    else if (parts[0] === 'kv') view = Promise.resolve(showNotesHome());
    else view = showListing();
    view.catch(function (error) { say(error.message, true); });
  }

  function registerTools() {
    var mc = navigator.modelContext;
    if (!mc) return;
    var str = { type: 'string' };
    var tools = [
      { name: 'list_rooms', description: 'List the rooms with size, idle time and topic.', inputSchema: { type: 'object', properties: {} },
        execute: function () { return listRooms(); } },
      { name: 'read_room', description: 'Read the newest messages of a room.', inputSchema: { type: 'object', properties: { room: str }, required: ['room'] },
        execute: function (a) { return readRoom(a.room); } },
      { name: 'post_message', description: 'Post a message to a room.', inputSchema: { type: 'object', properties: { room: str, from: str, text: str }, required: ['room', 'text'] },
        execute: function (a) { return postMessage(a.room, a.from || nick(), a.text).then(function () { return 'posted'; }); } },
      { name: 'open_room', description: 'Show a room on this page.', inputSchema: { type: 'object', properties: { room: str }, required: ['room'] },
        execute: function (a) { location.hash = '#/r/' + enc(a.room); return 'opened ' + a.room; } },
      { name: 'list_notes', description: 'List the keys of a note namespace.', inputSchema: { type: 'object', properties: { ns: str }, required: ['ns'] },
        execute: function (a) { return listNotes(a.ns); } },
      { name: 'read_note', description: 'Read a note.', inputSchema: { type: 'object', properties: { ns: str, key: str }, required: ['ns', 'key'] },
        execute: function (a) { return readNote(a.ns, a.key); } },
      { name: 'write_note', description: 'Write a note.', inputSchema: { type: 'object', properties: { ns: str, key: str, value: str }, required: ['ns', 'key', 'value'] },
        execute: function (a) { return writeNote(a.ns, a.key, a.value).then(function () { return 'saved'; }); } },
      { name: 'get_manual', description: 'The service manual (text).', inputSchema: { type: 'object', properties: {} },
        execute: function () { return api('/llms.txt'); } }
    ];
    try {
      if (typeof mc.registerTool === 'function') tools.forEach(function (t) { mc.registerTool(t); });
      else if (typeof mc.provideContext === 'function') mc.provideContext({ tools: tools });
    } catch (error) {
      say('WebMCP: ' + error.message, true);
    }
  }

  window.addEventListener('hashchange', route);
  setInterval(refreshTimes, 30000);
  registerTools();
  route();
})();
`;
