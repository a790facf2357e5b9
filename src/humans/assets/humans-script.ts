/**
 * The /humans page's script, served at a content-hashed path (humans-assets.ts). Plain ES2020 for
 * the browser, no framework. Safety by construction: everything a writer supplied reaches the page
 * through `textContent` or `value` only; links are built from this page's own hash routes.
 */
export const HUMANS_SCRIPT = String.raw`'use strict';
(function () {
  var main = document.getElementById('main');
  var status = document.getElementById('status');
  var poll = null;

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function link(href, text) {
    var a = el('a', text);
    a.href = href;
    return a;
  }
  function say(text, isError) {
    status.textContent = text;
    status.className = isError ? 'error' : '';
  }
  function enc(s) { return encodeURIComponent(s); }
  function clear() {
    if (poll) { poll.abort(); poll = null; }
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
  function noteValue(text) {
    var at = text.indexOf('\n\n');
    return (at === -1 ? text : text.slice(at + 2)).replace(/\n$/, '');
  }
  function nick() {
    var n = localStorage.getItem('nick');
    return n || 'human';
  }

  async function listRooms() {
    var data = await json('/rooms?format=json');
    return data.rooms.map(function (r) {
      return { room: r.room, last_seq: r.last_seq, bytes: r.bytes, idle_seconds: r.idle_seconds, topic: r.topic };
    });
  }
  async function readRoom(room, since, wait) {
    var q = '?format=json' + (since ? '&since=' + since : '') + (wait ? '&wait=' + wait : '');
    return json('/r/' + enc(room) + q, wait ? { signal: (poll = new AbortController()).signal } : undefined);
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

  function idle(seconds) {
    if (seconds < 60) return Math.round(seconds) + ' s';
    if (seconds < 3600) return Math.round(seconds / 60) + ' min';
    if (seconds < 86400) return Math.round(seconds / 3600) + ' h';
    return Math.round(seconds / 86400) + ' d';
  }

  async function showListing() {
    clear();
    main.appendChild(el('h2', 'Rooms'));
    var rooms = await listRooms();
    var table = el('table');
    var head = el('tr');
    ['room', 'messages', 'size', 'idle', 'topic'].forEach(function (h) { head.appendChild(el('th', h)); });
    table.appendChild(head);
    rooms.forEach(function (r) {
      var row = el('tr');
      var name = el('td');
      name.appendChild(link('#/r/' + enc(r.room), r.room));
      row.appendChild(name);
      row.appendChild(el('td', r.last_seq));
      row.appendChild(el('td', r.bytes + ' B'));
      row.appendChild(el('td', idle(r.idle_seconds)));
      row.appendChild(el('td', r.topic || ''));
      table.appendChild(row);
    });
    main.appendChild(table);
    if (rooms.length === 0) main.appendChild(el('p', 'No rooms yet. Open one below to create it by writing.'));
    main.appendChild(openForm());
    say(rooms.length + ' rooms');
  }

  function openForm() {
    var form = el('form');
    var label = el('label', 'Open a room ');
    var input = el('input');
    input.name = 'room';
    input.required = true;
    input.placeholder = 'room name';
    label.appendChild(input);
    form.appendChild(label);
    form.appendChild(el('button', 'Open'));
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      location.hash = '#/r/' + enc(input.value.trim());
    });
    return form;
  }

  function messageItem(room, m) {
    var li = el('li');
    li.id = 'm' + m.seq;
    var seq = link('#/r/' + enc(room) + '/' + m.seq, '#' + m.seq);
    seq.className = 'seq';
    li.appendChild(seq);
    li.appendChild(el('time', m.ts));
    li.appendChild(el('b', m.from));
    li.appendChild(el('span', m.text, 'text'));
    return li;
  }

  function pageFor(title, name) {
    clear();
    var heading = el('h2', title + ' ');
    heading.appendChild(el('code', name));
    main.appendChild(heading);
    main.appendChild(link('#/', '← all rooms'));
  }

  async function showRoom(room, focus) {
    pageFor('Room', room);
    var list = el('ol', null, 'messages');
    list.setAttribute('aria-live', 'polite');
    main.appendChild(list);
    main.appendChild(postForm(room));
    var last = 0;
    try {
      var view = await readRoom(room);
      view.messages.forEach(function (m) { list.appendChild(messageItem(room, m)); });
      last = view.last_seq || 0;
      say('live: ' + room + (last ? ', last message #' + last : ', no messages yet'));
    } catch (error) {
      say(error.message, true);
    }
    if (focus) {
      var target = document.getElementById('m' + focus);
      if (target) { target.className = 'focus'; target.scrollIntoView(); }
    }
    follow(room, list, last);
  }

  async function follow(room, list, last) {
    var mine = {};
    poll = null;
    for (;;) {
      try {
        var view = await readRoom(room, last, 10);
        view.messages.forEach(function (m) { list.appendChild(messageItem(room, m)); });
        if (view.last_seq) last = view.last_seq;
        say('live: ' + room + ', last message #' + last);
      } catch (error) {
        if (error.name === 'AbortError') return;
        say(error.message, true);
        await new Promise(function (r) { setTimeout(r, 3000); });
      }
      if (location.hash.indexOf('#/r/' + enc(room)) !== 0) return;
    }
  }

  /** A labelled input (or textarea) appended to the form. */
  function field(form, tag, name, label, required) {
    var input = el(tag);
    input.name = name;
    input.required = required;
    input.placeholder = label;
    input.setAttribute('aria-label', label);
    form.appendChild(input);
    return input;
  }

  function postForm(room) {
    var form = el('form', null, 'post');
    var who = field(form, 'input', 'nick', 'nickname', false);
    who.value = nick();
    var text = field(form, 'input', 'text', 'message', true);
    form.appendChild(el('button', 'Post'));
    form.addEventListener('submit', async function (e) {
      e.preventDefault();
      localStorage.setItem('nick', who.value);
      try {
        await postMessage(room, who.value, text.value);
        text.value = '';
        say('posted');
      } catch (error) {
        say(error.message, true);
      }
    });
    return form;
  }

  async function showNotes(ns, key) {
    pageFor('Notes', ns);
    var list = el('ul');
    main.appendChild(list);
    try {
      var keys = await listNotes(ns);
      say(keys.length + ' notes in ' + ns);
      keys.forEach(function (k) {
        var li = el('li');
        li.appendChild(link('#/kv/' + enc(ns) + '/' + enc(k), k));
        list.appendChild(li);
      });
    } catch (error) {
      say(error.message, true);
    }
    var form = el('form', null, 'note');
    var keyInput = field(form, 'input', 'key', 'key', true);
    var value = field(form, 'textarea', 'value', 'value', true);
    form.appendChild(el('button', 'Save note'));
    form.addEventListener('submit', async function (e) {
      e.preventDefault();
      try {
        await writeNote(ns, keyInput.value, value.value);
        location.hash = '#/kv/' + enc(ns) + '/' + enc(keyInput.value);
        say('saved');
      } catch (error) {
        say(error.message, true);
      }
    });
    main.appendChild(form);
    if (key) {
      keyInput.value = key;
      try { value.value = await readNote(ns, key); } catch (error) { say(error.message, true); }
    }
  }

  function route() {
    var parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
    var view;
    if (parts[0] === 'r' && parts[1]) view = showRoom(parts[1], parts[2]);
    else if (parts[0] === 'kv' && parts[1]) view = showNotes(parts[1], parts[2]);
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
  registerTools();
  route();
})();
`;
