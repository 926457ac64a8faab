// Issue 13 item 8: memoryUsedBytes reports what the state holds. The lmdb provider reported 0
// (only a batch's pending changes counted); it now reports the map size in use. The row store's
// estimate is compared with the heap its keys really take (measured with forced GCs): rows built
// by a spread kept 2-3x their slots, so a 7-value aggregation row held ~370 B per key where the
// estimate said ~230 (1.6x; ~3x for small states, where fixed costs add up).
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { before, describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { functions as F, Session } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";

const tmp = tempDirs("arus-memused-");

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Heap plus ArrayBuffers (the columnar store keeps its vectors there) after full GCs. */
function held(): number {
  for (let i = 0; i < 4; i++) gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * Heap the state of `keys` new keys takes, next to what memoryUsedBytes says it grew by. The
 * input comes from files (a MemoryStream would keep it on the heap). The first large batch of a
 * process leaves one-time allocations behind (compiled code, pools; not state), so the query
 * takes `keys` new keys twice and the second time is measured; a small batch after each large
 * one lets its transient data go.
 */
async function measure(shape: "count per window" | "sum, avg, max", columnar: boolean, keys: number) {
  const dir = await tmp();
  const input = path.join(dir, "in");
  mkdirSync(input);
  let next = 0;
  const write = (name: string, n: number) => {
    const from = next;
    next += n;
    writeFileSync(
      path.join(input, name),
      Array.from({ length: n }, (_, i) =>
        JSON.stringify({ ts: new Date(1_700_000_000_000 + ((from + i) % 7) * 10_000).toISOString(), k: `user-${from + i}`, v: i * 1.5 }),
      ).join("\n"),
    );
  };
  const s = Session.builder()
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.sql.shuffle.partitions", "2")
    .config("arus.state.aggregation.columnar", String(columnar))
    // the heap measured is this thread's: the state stays here (auto would put a JSON file
    // source's aggregation state on the state threads)
    .config("arus.state.threads", "1")
    .getOrCreate();
  const df = s.readStream.schema("ts TIMESTAMP, k STRING, v DOUBLE").json(input);
  const agg =
    shape === "count per window"
      ? df.groupBy(F.window("ts", "10 seconds"), "k").count()
      : df.groupBy("k").agg(F.sum("v").alias("s"), F.avg("v").alias("a"), F.max("ts").alias("m"));
  const q = await agg.writeStream.outputMode("update").format("noop").start();
  const round = async (r: number) => {
    for (let f = 0; f < 4; f++) write(`r${r}-${f}.json`, keys / 4);
    await q.processAllAvailable();
    write(`r${r}-small.json`, 100);
    await q.processAllAvailable();
    return { heap: held(), reported: q.lastProgress!.stateOperators[0]!.memoryUsedBytes };
  };
  try {
    const first = await round(0);
    const second = await round(1);
    assert.equal(q.lastProgress!.stateOperators[0]!.numRowsTotal, next);
    return { heap: second.heap - first.heap, reported: second.reported - first.reported };
  } finally {
    await q.stop();
  }
}

describe("memoryUsedBytes", () => {
  // Measured (Node 20, 60 000 keys): the row store 1.03x (count per window) and 1.05x (sum, avg,
  // max; 1.62x before rows were built at their exact length), the columnar store 1.07-1.09x.
  // The first windowed query of a process leaves ~8 MB more behind in its second round (seen
  // after the main of 2026-12-02; not state: a second identical query does not): one run first.
  before(() => measure("count per window", false, 40_000));
  for (const [shape, columnar] of [
    ["count per window", false],
    ["sum, avg, max", false],
    ["count per window", true],
  ] as const) {
    it(`${columnar ? "columnar" : "row"} store, ${shape}: within 0.7x-1.4x of the heap its keys take`, async (t) => {
      const { heap, reported } = await measure(shape, columnar, 40_000);
      const ratio = heap / reported;
      t.diagnostic(`${columnar ? "columnar" : "row"}, ${shape}: heap/reported ${ratio.toFixed(2)}`);
      assert.ok(ratio > 0.7 && ratio < 1.4, `heap grew ${heap} B, memoryUsedBytes grew ${reported} B (heap/reported ${ratio.toFixed(2)})`);
    });
  }

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

describe("memoryUsedBytes of a stream-stream join", () => {
  // Spark sums every state store of the join, both sides and every partition; arus reported the
  // left side only (a join whose rows were all on the right reported nothing of them).
  for (const columnar of ["true", "false"]) {
    it(`counts both sides' rows (arus.state.join.columnar=${columnar})`, async () => {
      const s = Session.builder()
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "3")
        .config("arus.state.join.columnar", columnar)
        .getOrCreate();
      const left = s.memoryStream("lk STRING, lv INT");
      const right = s.memoryStream("rk STRING, rv INT");
      const q = await left
        .toDF()
        .join(right.toDF(), F.expr("lk = rk"))
        .writeStream.format("noop")
        .option("checkpointLocation", await tmp())
        .start();
      const used = () => q.lastProgress!.stateOperators[0]!.memoryUsedBytes;
      try {
        left.addData([{ lk: "l0", lv: 0 }]);
        await q.processAllAvailable();
        const before = used();
        // rows on the right only, matching nothing: all of them stay in the right side's state
        right.addData(Array.from({ length: 3000 }, (_, i) => ({ rk: `right-only-key-${i}`, rv: i })));
        await q.processAllAvailable();
        assert.equal(q.lastProgress!.stateOperators[0]!.numRowsTotal, 3001);
        assert.ok(used() - before > 3000 * 20, `memoryUsedBytes ${before} -> ${used()} after 3000 right rows`);
      } finally {
        await q.stop();
      }
    });
  }
});
