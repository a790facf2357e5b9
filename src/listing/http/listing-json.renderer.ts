import { pyFloatRepr } from '../../common/py-compat/py-float';
import { LISTING_BANNER, ListingView, UNTRUSTED_LISTING_FIELDS } from '../listing-view';

/** A ratio as the reference's encoder prints it: Python float repr (`1.0`, `0.6667`) or null. */
function ratio(value: number | null): string {
  return value === null ? 'null' : pyFloatRepr(value);
}

/** Compact JSON of the listing, keys in the contract's order (§11.2), newline-terminated. */
export function renderListingJson(view: ListingView): string {
  const rooms = view.rooms.map(
    (r) =>
      `{"room":${JSON.stringify(r.room)},"last_seq":${r.lastSeq},"bytes":${r.bytes},` +
      `"idle_seconds":${r.idleSeconds},"topic":${r.topic === null ? 'null' : JSON.stringify(r.topic)},` +
      `"window":${r.window},"zero_response_share":${ratio(r.zeroResponseShare)},` +
      `"nick_diversity":${ratio(r.nickDiversity)}}`,
  );
  const e = view.engagement;
  const n = view.notes;
  return (
    `{"rooms":[${rooms.join(',')}],"total":${view.total},"capacity":${view.capacity},` +
    `"bytes":${view.bytes},"bytes_capacity":${view.bytesCapacity},` +
    `"engagement":{"window_cap":${e.windowCap},"windowed_messages":${e.windowedMessages},` +
    `"zero_response_share":${ratio(e.zeroResponseShare)},"nick_diversity":${ratio(e.nickDiversity)},` +
    `"windowed_note_to_message_ratio":${ratio(e.noteToMessageRatio)}},` +
    `"notes":{"total":${n.total},"bytes":${n.bytes},"capacity":${n.capacity},` +
    `"capacity_per_namespace":${n.capacityPerNamespace}},` +
    `"untrusted":{"fields":${JSON.stringify(UNTRUSTED_LISTING_FIELDS)},"note":${JSON.stringify(LISTING_BANNER)}}}\n`
  );
}
