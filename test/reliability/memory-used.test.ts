// Issue 13 item 8: memoryUsedBytes reports what the state holds. The lmdb provider reported 0
// (only a batch's pending changes counted); it now reports the map size in use.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";

const tmp = tempDirs("arus-memused-");

describe("memoryUsedBytes", () => {
  it("lmdb: the map in use, not 0", async () => {
    const s = Session.builder()
      .config("spark.sql.session.timeZone", "UTC")
      .config("spark.sql.shuffle.partitions", "2")
      .config("spark.sql.streaming.stateStore.providerClass", "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider")
      .getOrCreate();
    const ms = s.memoryStream("ts TIMESTAMP, k STRING");
    const q = await ms
      .toDF()
      .groupBy(F.window("ts", "10 seconds"), "k")
      .count()
      .writeStream.outputMode("update")
      .format("noop")
      .option("checkpointLocation", await tmp())
      .start();
    try {
      ms.addData(Array.from({ length: 5000 }, (_, i) => ({ ts: new Date(1_700_000_000_000 + (i % 7) * 10_000), k: `user-${i}` })));
      await q.processAllAvailable();
      const st = q.lastProgress!.stateOperators[0]!;
      assert.equal(st.numRowsTotal, 5000);
      // 5000 keys of ~40 bytes each (key, window, count) take well over 100 kB of lmdb pages
      assert.ok(st.memoryUsedBytes > 5000 * 20, `memoryUsedBytes ${st.memoryUsedBytes}`);
    } finally {
      await q.stop();
    }
  });
});
