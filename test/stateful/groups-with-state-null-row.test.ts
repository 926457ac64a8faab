/**
 * flatMapGroupsWithState's state row with a NULL value and no timeout. Scala's
 * FlatMapGroupsWithStateExec writes a key's row whenever a call changes its timeout, so a key
 * that only ever had a timeout keeps a row (NULL state, no timeout) after a timed-out call that
 * sets nothing; it counts in numRowsTotal until a call removes it. The expected counts are Spark
 * 4.3's (spark-shell, Scala API, the same function and batches). PySpark's applyInPandasWithState
 * cannot reach this row: it keeps the passed timeout instead (groupstate/timed-out-key-untouched-fires-again).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { GroupState, StreamingQuery } from "../../src/index.js";
import { addData, assertOnQuery, checkNewRows, startStream, stopStream, testStream } from "../../src/testing/index.js";
import { sec, utcSession } from "../streaming/helpers.js";

const session = utcSession();

/** a: a timeout 1 s after its last row, never a value; r: the same before :50, remove() after; others: nothing. */
function query() {
  const ms = session.memoryStream("k STRING, ts TIMESTAMP");
  const df = ms
    .toDF()
    .withWatermark("ts", "5 seconds")
    .groupBy("k")
    .flatMapGroupsWithState(
      (key, rows, state: GroupState) => {
        if (state.hasTimedOut) return [{ k: key[0], kind: "timeout" }];
        const last = Math.max(...rows.map((r) => (r.ts as Date).getTime()));
        if (key[0] === "a" || (key[0] === "r" && last < 50_000)) state.setTimeoutTimestamp(last + 1000);
        else if (key[0] === "r") state.remove();
        return [{ k: key[0], kind: "data" }];
      },
      "k STRING, kind STRING",
      "n BIGINT",
      "append",
      "EventTimeTimeout",
    );
  return { ms, df };
}

/** [numRowsTotal, numRowsUpdated, numRowsRemoved] of each batch since `from`. */
function counts(q: StreamingQuery, from: number): number[][] {
  return q.recentProgress
    .filter((p) => p.batchId >= from)
    .map((p) => [p.stateOperators[0]!.numRowsTotal, p.stateOperators[0]!.numRowsUpdated, p.stateOperators[0]!.numRowsRemoved]);
}

describe("flatMapGroupsWithState: the NULL-state row a cleared timeout leaves", () => {
  it("stays counted in numRowsTotal (as Spark: 2,2,2,2,2,1,1,1,1), across a restart, until remove()", async () => {
    const { ms, df } = query();
    const shape = (n: number[][]) => n.map(([total]) => total);
    await testStream(df, "append", [
      addData(ms, [
        { k: "a", ts: sec(1) },
        { k: "r", ts: sec(2) },
      ]),
      checkNewRows([
        { k: "a", kind: "data" },
        { k: "r", kind: "data" },
      ]),
      addData(ms, [{ k: "x", ts: sec(20) }]), // watermark -> :15; the no-data batch times a and r out
      checkNewRows([
        { k: "x", kind: "data" },
        { k: "a", kind: "timeout" },
        { k: "r", kind: "timeout" },
      ]),
      assertOnQuery((q) => {
        // Spark: batches 0-2 total 2, 2, 2; updated 2, 0, 2 (the timed-out calls rewrite both rows)
        assert.deepEqual(counts(q, 0), [
          [2, 2, 0],
          [2, 0, 0],
          [2, 2, 0],
        ]);
      }),
      stopStream(),
      startStream(),
      addData(ms, [{ k: "x", ts: sec(30) }]),
      checkNewRows([{ k: "x", kind: "data" }]), // nobody times out again
      assertOnQuery((q) => assert.deepEqual(shape(counts(q, 3)), [2, 2])),
      addData(ms, [{ k: "r", ts: sec(60) }]), // r: remove() with no timeout deletes its row
      checkNewRows([{ k: "r", kind: "data" }]),
      assertOnQuery((q) =>
        assert.deepEqual(counts(q, 5), [
          [1, 0, 1],
          [1, 0, 0],
        ]),
      ),
      addData(ms, [{ k: "a", ts: sec(70) }]), // a: a new timeout replaces the NULL row
      checkNewRows([{ k: "a", kind: "data" }]),
      assertOnQuery((q) => assert.deepEqual(counts(q, 7)[0], [1, 1, 0])),
    ]);
  });
});
