/**
 * The streaming semantics suites (test/streaming/*.test.ts) again, with
 * arus.state.aggregation.columnar=true: every streaming aggregation they run that fits the
 * columnar store plans the aggregation over the columnar backend instead of the row stores, and must give the
 * same output, progress and checkpoint behaviour.
 */
import "./columnar-flag.js";
import assert from "node:assert/strict";
import { after } from "node:test";
import { StreamingAggregateExec } from "../../src/execution/stateful/streaming-aggregate.js";
import "../streaming/ansi-constant-errors.test.js";
import "../streaming/append-equals-batch.property.test.js";
import "../streaming/checkpoint-restart-windowed.test.js";
import "../streaming/complete-mode.test.js";
import "../streaming/deduplication.test.js";
import "../streaming/groupby-event-time-column.test.js";
import "../streaming/late-rows-boundary.test.js";
import "../streaming/late-vs-eviction-watermark.test.js";
import "../streaming/memory-sink.test.js";
import "../streaming/multiple-watermarks.test.js";
import "../streaming/output-mode-rejections.test.js";
import "../streaming/progress-fields.test.js";
import "../streaming/query-lifecycle.test.js";
import "../streaming/rate-micro-batch.test.js";
import "../streaming/sliding-windows-late.test.js";
import "../streaming/triggers-once-available-now.test.js";
import "../streaming/update-mode-eviction.test.js";
import "../streaming/watermark-worked-example.test.js";

after(() => {
  assert.ok(StreamingAggregateExec.created.columnar > 0, "the columnar flag took effect: some query planned the columnar backend");
});
