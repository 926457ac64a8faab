/**
 * The suites with stream-stream joins again, with arus.state.join.columnar=false: every join
 * keeps its state in the row stores (join-state.ts's layout, what checkpoints written before the
 * columnar join state hold) instead of the columnar join tables, and must give the same output,
 * progress and checkpoint behaviour (restarts, late rows, outer rows, key kinds).
 */
import "./row-join-flag.js";
import assert from "node:assert/strict";
import { after } from "node:test";
import { StreamStreamJoinExec } from "../../src/execution/stateful/stream-join.js";
import "../runtime/checkpoint-restart.test.js";
import "../runtime/late-rows.test.js";
import "../streaming/checkpoint-restart-windowed.test.js";
import "../streaming/decimal-state.test.js";
import "../streaming/memory-sink.test.js";
import "../streaming/output-mode-rejections.test.js";
import "../streaming/stream-join-keys.test.js";
import "../streaming/stream-join-outer-flag.test.js";
import "../streaming/stream-join-restart.test.js";
import "../streaming/triggers-once-available-now.test.js";
import "../state/engine-providers.test.js";

after(() => {
  assert.ok(StreamStreamJoinExec.created.row > 0, "the flag took effect: some join kept its state in the row stores");
  assert.equal(StreamStreamJoinExec.created.columnar, 0, "no join kept its state columnar");
});
