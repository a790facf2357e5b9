/**
 * The room view of the /humans script: a room opens at its newest messages, older pages come on
 * request, and the timeline stays pinned to the newest message while the reader has not scrolled
 * up, also when something above it (topic, signed head, status) arrives later and takes height.
 * Spliced into the page's one closure (humans-script.ts): uses its helpers (el, link, enc, say, …).
 */
export const HUMANS_ROOM_SCRIPT = String.raw`
  /**
   * Whether the reader is at the newest message, decided by their last scroll, not by where the
   * layout happens to leave the timeline: when the room bar grows (the topic or the signed head load
   * after the first page) or a message grows (a signature mark), a pinned timeline scrolls back to
   * the bottom; one the reader scrolled up stays where they put it.
   */
  function keepNewestInView(timeline, list) {
    var pinned = true;
    function nearBottom() { return timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 80; }
    timeline.addEventListener('scroll', function () { pinned = nearBottom(); });
    if (typeof ResizeObserver === 'function') {
      var observer = new ResizeObserver(function () { if (pinned) timeline.scrollTop = timeline.scrollHeight; });
      observer.observe(timeline);
      observer.observe(list);
    }
    return {
      atNewest: function () { return pinned || nearBottom(); },
      /** A linked message was brought into view: it stays there until the reader scrolls. */
      release: function () { pinned = false; }
    };
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
    var pinned = keepNewestInView(timeline, list);
    state.add = function (messages) {
      var fresh = messages.filter(function (m) { return m.seq > state.last; });
      if (fresh.length === 0) return;
      fresh.forEach(function (m) { list.appendChild(messageItem(room, m)); });
      state.last = fresh[fresh.length - 1].seq;
      if (state.first === null) state.first = fresh[0].seq;
      if (pinned.atNewest()) timeline.scrollTop = timeline.scrollHeight;
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
    if (target) { target.className = 'focus'; pinned.release(); target.scrollIntoView({ block: 'center' }); }
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

`;
