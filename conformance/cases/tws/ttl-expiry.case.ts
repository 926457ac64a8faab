import { defineCase } from "../../case.js";

const PROCESSOR = `
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor

class Seen(StatefulProcessor):
    def init(self, handle):
        self.last = handle.getValueState("last", "v INT", 1)
        self.keep = handle.getValueState("keep", "v INT")

    def handleInputRows(self, key, rows, timerValues):
        vs = [r.v for r in rows]
        prev = self.last.get()
        kept = self.keep.get()
        self.last.update((vs[-1],))
        self.keep.update((vs[-1],))
        yield Row(k=key[0], prev_ttl=prev[0] if prev else None, prev_kept=kept[0] if kept else None)

    def close(self):
        pass

def build(spark, df):
    return df.groupBy("k").transformWithState(Seen(), "k STRING, prev_ttl INT, prev_kept INT", "Update", "ProcessingTime")
`;

export default defineCase({
  description:
    "transformWithState TTL (ProcessingTime mode): a value state with a 1 ms TTL has expired by the next batch (its stamp, batch time + 1 ms, is at or before that batch's time) while a value state without TTL keeps its value.",
  input: {
    schema: "k STRING, v INT",
    batches: [[{ k: "a", v: 1 }, { k: "b", v: 2 }], [{ k: "a", v: 3 }], [{ k: "a", v: 4 }, { k: "b", v: 5 }]],
  },
  outputMode: "update",
  // One batch per run (Trigger.Once, restarted per file): a ProcessingTime query under
  // availableNow never ends in PySpark (see processing-time-timers).
  trigger: "once",
  restartAt: [1, 2],
  confs: { "spark.sql.streaming.stateStore.providerClass": "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider" },
  pyspark: PROCESSOR,
  arus: ({ df }) => {
    class Seen {
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      last: any;
      // biome-ignore lint/suspicious/noExplicitAny: as above
      keep: any;
      // biome-ignore lint/suspicious/noExplicitAny: as above
      init(handle: any) {
        this.last = handle.getValueState("last", "v INT", 1);
        this.keep = handle.getValueState("keep", "v INT");
      }
      // biome-ignore lint/suspicious/noExplicitAny: as above
      *handleInputRows(key: unknown[], rows: any[]) {
        const vs = rows.map((r) => r.v);
        const prev = this.last.get();
        const kept = this.keep.get();
        this.last.update({ v: vs.at(-1) });
        this.keep.update({ v: vs.at(-1) });
        yield { k: key[0], prev_ttl: prev ? prev.v : null, prev_kept: kept ? kept.v : null };
      }
      close() {}
    }
    return df.groupBy("k").transformWithState(new Seen(), "k STRING, prev_ttl INT, prev_kept INT", "Update", "ProcessingTime");
  },
  compare: { ignoreProgress: ["operatorName", "numRowsTotal", "numRowsUpdated", "numRowsRemoved"] },
});
