/**
 * test/runtime/chained-stateful.test.ts, test/runtime/checkpoint-restart.test.ts and the
 * provider comparison behind real queries (test/state/engine-providers.test.ts: the memory
 * provider, now columnar, against the lmdb row store, across a restart) again, with
 * arus.state.aggregation.columnar=true.
 * (test/runtime/late-rows.test.ts runs in columnar-late-rows.test.ts: it sets another
 * partition count on the shared session.)
 */
import "./columnar-flag.js";
import assert from "node:assert/strict";
import { after } from "node:test";
import { StreamingAggregateExec } from "../../src/execution/stateful/streaming-aggregate.js";
import "../runtime/chained-stateful.test.js";
import "../runtime/checkpoint-restart.test.js";
import "./engine-providers.test.js";

after(() => {
  assert.ok(StreamingAggregateExec.created.columnar > 0, "the columnar flag took effect: some query planned the columnar backend");
});
