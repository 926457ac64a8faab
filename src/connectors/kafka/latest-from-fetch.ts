/**
 * The latest offsets of a streaming trigger taken from the source's own Fetch answers instead of
 * a ListOffsets request (source option `arus.latestOffsetsFromFetch`, docs/kafka.md). A Fetch
 * answer carries each partition's high watermark and last stable offset, the very ends a
 * ListOffsets request answers (read_uncommitted / read_committed), and the trigger sends that
 * Fetch anyway (the next batch's records): one broker round trip per batch instead of two.
 *
 * Taken only where the answer proves itself: every partition of the subscription already read
 * from (a new or a deleted partition asks the broker), each with an answer at most
 * FETCHED_END_MAX_AGE_MS old and not behind the batch's start. Anything else — no answer yet, a
 * Fetch error (a deleted topic, records deleted under the start, a leader moved), a log end
 * below the start (a truncated or re-created topic) — returns null, and the trigger asks the
 * broker as before, so Spark's data-loss checks see what they always saw.
 */
import type { KafkaFetcher, TopicPartition } from "./client.js";
import { OffsetMap } from "./offsets.js";

/**
 * How old a Fetch answer's log end may be and still be a trigger's latest offset. Records that
 * came since are read by a later batch (every trigger's own Fetch sees them).
 */
export const FETCHED_END_MAX_AGE_MS = 100;

/**
 * How long a trigger waits for its Fetch's answer (sent with maxWaitTime 0, so normally one
 * round trip) before it asks the broker with ListOffsets instead: a broker that does not answer
 * fails the query through the ListOffsets retries, as before.
 */
export const FETCHED_END_MAX_WAIT_MS = 1000;

/**
 * The latest offsets of `parts` (the subscription's partitions) for a batch that starts at
 * `from`, from the fetcher's answers; null when the broker must be asked.
 */
export async function latestFromFetch(fetcher: KafkaFetcher, parts: readonly TopicPartition[], from: OffsetMap): Promise<OffsetMap | null> {
  if (!fetcher.logEnds || parts.length !== from.size || parts.some((tp) => !from.has(tp))) return null;
  const starts = parts.map((tp) => ({ tp, offset: from.get(tp)! }));
  const ends = await fetcher.logEnds(starts, FETCHED_END_MAX_AGE_MS, FETCHED_END_MAX_WAIT_MS);
  const out = new OffsetMap();
  for (let i = 0; i < starts.length; i++) {
    const end = ends[i];
    if (end === null || end === undefined || end < starts[i]!.offset) return null;
    out.set(starts[i]!.tp, end);
  }
  return out;
}
