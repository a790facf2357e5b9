/**
 * The part of the /humans script that keeps an open room live: Server-Sent Events from
 * `/r/<room>/sse` while they work, a long-poll loop where EventSource is missing or the stream is
 * refused (e.g. 429 stream_limit). Spliced into the page's one script (humans-script.ts); defines
 * `follow(room, state)` in the enclosing scope and uses its helpers (say, enc, readRoom, live).
 */
export const HUMANS_FOLLOW_SCRIPT = String.raw`
  /** Server-Sent Events while they work; a long-poll loop where EventSource is missing or refused. */
  function follow(room, state) {
    var stopped = false;
    var source = null;
    var controller = null;
    live = { close: function () {
      stopped = true;
      if (source) source.close();
      if (controller) controller.abort();
      if (state.headTimer) clearTimeout(state.headTimer);
    } };
    if (typeof EventSource === 'function') stream(); else longPoll();

    function stream() {
      // Without a first read there is no seq to start from: the stream then starts at the newest
      // (since=0 would replay the whole ring).
      source = new EventSource('/r/' + enc(room) + '/sse' + (state.read ? '?since=' + state.last : ''));
      source.addEventListener('ready', function () { say('live: ' + room); });
      source.onmessage = function (e) { state.add([parseRecordJson(e.data).message]); };
      source.addEventListener('gap', function (e) {
        var gap = JSON.parse(e.data);
        state.notice('messages #' + gap.from + '–#' + gap.to + ' are no longer held (' + gap.reason + ')');
      });
      source.addEventListener('reset', function () { state.notice('the room was emptied and started again'); });
      source.onerror = function () {
        if (stopped) return;
        if (source.readyState === EventSource.CLOSED) { source = null; longPoll(); } // refused, e.g. 429
        else say('reconnecting to ' + room + '…');
      };
    }
    async function longPoll() {
      say('live (long-poll): ' + room);
      while (!stopped) {
        try {
          controller = new AbortController();
          var view = await readRoom(room, '&since=' + state.last + '&wait=10', controller.signal);
          state.add(view.messages);
          say('live (long-poll): ' + room);
        } catch (error) {
          if (stopped) return;
          say(error.message, true);
          await new Promise(function (r) { setTimeout(r, 3000); });
        }
      }
    }
  }
`;
