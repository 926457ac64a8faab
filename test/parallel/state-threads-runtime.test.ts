/**
 * The runtime suites again with arus.state.threads=2: chained aggregations (each one's state
 * on the threads) and restarts from a checkpoint (Spark's layout, state reloaded by the threads).
 */
import "./state-threads-flag.js";
import assert from "node:assert/strict";
import { after } from "node:test";
import { StatePartitionThreads } from "../../src/execution/parallel/state-threads.js";
import "../runtime/chained-stateful.test.js";
import "../runtime/checkpoint-restart.test.js";

after(() => {
  assert.ok(StatePartitionThreads.batchesRun > 0, "the state threads took effect: some batch ran on them");
});
