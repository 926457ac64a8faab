/**
 * The streaming semantics suites again with arus.state.threads=2: every columnar aggregation
 * keeps its state partitions on two worker threads, rows routed by key hash, and must give
 * the same output, progress and checkpoint behaviour as on the main thread.
 */
import "./state-threads-flag.js";
import assert from "node:assert/strict";
import { after } from "node:test";
import { StatePartitionThreads } from "../../src/execution/parallel/state-threads.js";
import "../streaming/append-equals-batch.property.test.js";
import "../streaming/checkpoint-restart-windowed.test.js";
import "../streaming/complete-mode.test.js";
import "../streaming/groupby-event-time-column.test.js";
import "../streaming/late-rows-boundary.test.js";
import "../streaming/late-vs-eviction-watermark.test.js";
import "../streaming/multiple-watermarks.test.js";
import "../streaming/progress-fields.test.js";
import "../streaming/sliding-windows-late.test.js";
import "../streaming/triggers-once-available-now.test.js";
import "../streaming/update-mode-eviction.test.js";
import "../streaming/watermark-worked-example.test.js";

after(() => {
  assert.ok(StatePartitionThreads.batchesRun > 0, "the state threads took effect: some batch ran on them");
});
