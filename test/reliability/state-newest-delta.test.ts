// Issue 13 item 1: the newest state delta deleted (of one partition) must stop the restart with
// an error naming the missing file and the version the commit log requires, with the row
// (memory), columnar and lmdb providers alike. The old loader only checked the version chain
// among files that exist, so the restart ran on with state from before that version.
import assert from "node:assert/strict";
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";

const tmp = tempDirs("arus-newest-delta-");
const PROVIDERS: Record<string, Record<string, string>> = {
  row: { "arus.state.aggregation.columnar": "false" }, // the in-memory default is the columnar store
  columnar: { "arus.state.aggregation.columnar": "true" },
  lmdb: { "spark.sql.streaming.stateStore.providerClass": "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider" },
  "columnar on 2 state threads": { "arus.state.aggregation.columnar": "true", "arus.state.threads": "2" },
};

function session(conf: Record<string, string>): Session {
  let b = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2");
  for (const [k, v] of Object.entries(conf)) b = b.config(k, v);
  return b.getOrCreate();
}

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

describe("newest state delta deleted: the restart fails naming it", () => {
  for (const [name, conf] of Object.entries(PROVIDERS)) {
    it(name, async () => {
      const s = session(conf);
      const ckpt = await tmp();
      const ms = s.memoryStream("ts TIMESTAMP, k STRING");
      const start = () =>
        ms
          .toDF()
          .groupBy(F.window("ts", "10 seconds"), "k")
          .count()
          .writeStream.outputMode("update")
          .option("checkpointLocation", ckpt)
          .foreachBatch(() => {})
          .start();
      const q1 = await start();
      for (let b = 0; b < 3; b++) {
        ms.addData([
          { ts: at(b), k: "a" },
          { ts: at(b), k: "b" },
          { ts: at(b), k: "c" },
        ]);
        await q1.processAllAvailable();
      }
      await q1.stop();
      // the newest delta of the partition that has one of version 3
      const stateDir = path.join(ckpt, "state", "0");
      const part = readdirSync(stateDir).find((p) => /^\d+$/.test(p) && readdirSync(path.join(stateDir, p)).includes("3.delta"));
      assert.ok(part !== undefined, "some partition wrote version 3");
      const victim = path.join(stateDir, part, "3.delta");
      rmSync(victim);
      const q2 = await start();
      ms.addData([{ ts: at(4), k: "a" }]);
      await assert.rejects(q2.processAllAvailable(), (e: Error) => {
        assert.ok(e.message.includes(victim), e.message);
        assert.match(e.message, /commits\/2/);
        return true;
      });
      await q2.stop().catch(() => {});
    });
  }
});
