/**
 * The part of the /humans script that says when: a stored `ts` (`YYYY-MM-DDTHH:MM:SS.ffffffZ`, or
 * second precision on older records) as "2 min ago", the exact stored string being the element's
 * title. Its own string module so a unit test runs these very bytes. Defines `relativeTime(ts, now)`
 * (now in milliseconds) in the enclosing scope.
 */
export const HUMANS_TIME_SCRIPT = String.raw`
  function relativeTime(ts, now) {
    var at = Date.parse(ts);
    if (isNaN(at)) return String(ts);
    var seconds = Math.max(0, Math.floor((now - at) / 1000));
    if (seconds < 10) return 'just now';
    if (seconds < 60) return seconds + ' s ago';
    if (seconds < 3600) return Math.floor(seconds / 60) + ' min ago';
    if (seconds < 86400) return Math.floor(seconds / 3600) + ' h ago';
    if (seconds < 30 * 86400) return Math.floor(seconds / 86400) + ' d ago';
    return ts.slice(0, 10);
  }
`;
