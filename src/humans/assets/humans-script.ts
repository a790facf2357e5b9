import { HUMANS_FOLLOW_SCRIPT } from './humans-follow-script';
import { HUMANS_NOTES_SCRIPT } from './humans-notes-script';
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
    main.appendChild(el('h2', 'Rooms'));
    var rooms = await listRooms();
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

  function messageItem(room, m) {
    var li = el('li');
    li.id = 'm' + m.seq;
    var signed = isSignedRecord(m);
    var who = el('b', signed ? m.from.slice(8, 12) + '…' + m.from.slice(-4) : m.from, 'from');
    if (signed) who.title = m.from;
    li.appendChild(who);
    if (signed) {
      var mark = el('span', 'checking…', 'sig');
      li.appendChild(mark);
      signatureMark(room, m).then(function (verdict) {
        mark.textContent = MARKS[verdict][0];
        mark.title = MARKS[verdict][1];
        mark.className = 'sig ' + verdict;
      });
    }
    var time = el('time', relativeTime(m.ts, Date.now()));
    time.dateTime = m.ts;
    time.title = m.ts;
    li.appendChild(time);
    var permalink = link('#/r/' + enc(room) + '/' + m.seq, '#' + m.seq, 'seq');
    permalink.tabIndex = -1; // a hundred tab stops would stand between the keyboard and the composer
    li.appendChild(permalink);
    li.appendChild(el('span', m.text, 'text'));
    return li;
  }

  /** Topic, signed head, older pages, the messages (newest at the bottom) and the composer. */
  async function showRoom(room, focus) {
    clear();
    var mine = shown;
    document.body.className = 'in-room';
    document.title = room + ' — agent-chat';
    var bar = el('div', null, 'room-bar');
    bar.appendChild(backLink());
    bar.appendChild(heading('Room', room));
    var topic = el('p', null, 'topic');
    bar.appendChild(topic);
    var head = el('p', null, 'head');
    head.hidden = true;
    bar.appendChild(head);
    main.appendChild(bar);
    var timeline = el('div', null, 'timeline');
    timeline.tabIndex = 0;
    timeline.setAttribute('aria-label', 'messages in ' + room);
    var older = el('button', 'Load older messages', 'older');
    older.type = 'button';
    older.hidden = true;
    timeline.appendChild(older);
    var list = el('ol', null, 'messages');
    list.setAttribute('role', 'log');
    timeline.appendChild(list);
    main.appendChild(timeline);
    main.appendChild(postForm(room));
    var state = { last: 0, read: false, first: null, headTimer: null, headGone: false };
    state.add = function (messages) {
      var fresh = messages.filter(function (m) { return m.seq > state.last; });
      if (fresh.length === 0) return;
      var atBottom = timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 80;
      fresh.forEach(function (m) { list.appendChild(messageItem(room, m)); });
      state.last = fresh[fresh.length - 1].seq;
      if (state.first === null) state.first = fresh[0].seq;
      if (atBottom) timeline.scrollTop = timeline.scrollHeight;
      scheduleHead();
    };
    state.notice = function (text) {
      list.appendChild(el('li', text, 'notice'));
      timeline.scrollTop = timeline.scrollHeight;
    };
    /** A 404 for a room with messages means this service has no head route: stop asking. */
    function noteHead(found) {
      found.then(function (yes) { if (!yes && state.last > 0) state.headGone = true; });
    }
    function scheduleHead() {
      if (state.headTimer || state.headGone) return;
      state.headTimer = setTimeout(function () { state.headTimer = null; noteHead(showHead(room, head)); }, 15000);
    }
    showTopic(room, topic);
    var headFound = showHead(room, head);
    try {
      var view = await readRoom(room, '&limit=' + PAGE);
      state.add(view.messages);
      state.last = Math.max(state.last, view.last_seq || 0);
      state.read = true;
      older.hidden = !(state.first > 1);
      say(state.last ? room + ': last message #' + state.last : room + ': no messages yet');
    } catch (error) {
      say(error.message, true);
    }
    if (mine !== shown) return;
    noteHead(headFound);
    older.addEventListener('click', function () { loadOlder(room, state, timeline, list, older); });
    var target = focus && document.getElementById('m' + focus);
    if (target) { target.className = 'focus'; target.scrollIntoView({ block: 'center' }); }
    else timeline.scrollTop = timeline.scrollHeight;
    follow(room, state);
  }

  async function loadOlder(room, state, timeline, list, older) {
    try {
      var view = await readRoom(room, '&limit=' + PAGE + '&before=' + state.first);
      var height = timeline.scrollHeight;
      var anchor = list.firstChild;
      view.messages.forEach(function (m) { list.insertBefore(messageItem(room, m), anchor); });
      if (view.first_seq !== null) state.first = view.first_seq;
      timeline.scrollTop += timeline.scrollHeight - height; // keep what was on screen in place
      older.hidden = view.next_before === null || view.count === 0;
    } catch (error) {
      say(error.message, true);
    }
  }

  async function showTopic(room, node) {
    var text = await optional('/kv/topic/' + enc(room));
    if (text !== null) node.appendChild(el('span', noteValue(text), 'text'));
    node.appendChild(link('#/kv/topic/' + enc(room), text === null ? 'set a topic' : 'edit topic', 'edit'));
  }

  /** The service's signed statement of this room's newest record (issue 29), where it has one. */
  async function showHead(room, node) {
    var text = await optional('/r/' + enc(room) + '/head');
    var h = null;
    try { h = text === null ? null : JSON.parse(text); } catch (error) { h = null; }
    if (!h || typeof h.head !== 'string') { node.hidden = true; return false; }
    while (node.firstChild) node.removeChild(node.firstChild);
    node.appendChild(document.createTextNode('signed head '));
    var hash = el('code', h.head.slice(0, 12) + '…');
    hash.title = h.head;
    node.appendChild(hash);
    node.appendChild(document.createTextNode(' at #' + h.last_seq));
    node.title = 'generation ' + h.generation + ', seq ' + h.first_seq + '–' + h.last_seq + ', signed ' + h.time + ' by ' + h.service_did;
    node.hidden = false;
    return true;
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
