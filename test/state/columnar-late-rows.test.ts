/**
 * test/runtime/late-rows.test.ts again, with arus.state.aggregation.columnar=true (in its own
 * process: it uses 1 shuffle partition on the shared session, the other suites 2).
 */
import "./columnar-flag.js";
import assert from "node:assert/strict";
import { after } from "node:test";
import { StreamingAggregateExec } from "../../src/execution/stateful/streaming-aggregate.js";
import "../runtime/late-rows.test.js";

after(() => {
  assert.ok(StreamingAggregateExec.created.columnar > 0, "the columnar flag took effect: some query planned the columnar backend");
});
