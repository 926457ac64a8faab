/**
 * test/runtime/late-rows.test.ts again with arus.state.threads=2 (in its own process: it uses
 * 1 shuffle partition on the shared session, the other suites 2). The late filter and the
 * late-rows sink stay on the main thread; the state moves to the threads.
 */
import "./state-threads-flag.js";
import assert from "node:assert/strict";
import { after } from "node:test";
import { StatePartitionThreads } from "../../src/execution/parallel/state-threads.js";
import "../runtime/late-rows.test.js";

after(() => {
  assert.ok(StatePartitionThreads.batchesRun > 0, "the state threads took effect: some batch ran on them");
});
