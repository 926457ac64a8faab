import { defineCase } from "../../case.js";

// A StatefulProcessor written once in Python and once in TypeScript, line for line.
const PROCESSOR = `
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor

class RunningCount(StatefulProcessor):
    def init(self, handle):
        self.count = handle.getValueState("count", "value BIGINT")

    def handleInputRows(self, key, rows, timerValues):
        n = (self.count.get()[0] if self.count.exists() else 0) + sum(1 for _ in rows)
        self.count.update((n,))
        yield Row(k=key[0], count=n)

    def close(self):
        pass

def build(spark, df):
    return df.groupBy("k").transformWithState(RunningCount(), "k STRING, count BIGINT", "Update", "None")
`;

export default defineCase({
  description:
    "transformWithState, time mode None: a running count per key in a ValueState, in Update mode, across a restart (state comes back from the checkpoint).",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 2 },
        { k: "b", v: 3 },
      ],
      [{ k: "a", v: 4 }],
      [
        { k: "b", v: 5 },
        { k: "c", v: 6 },
      ],
      [{ k: "a", v: 7 }],
    ],
  },
  outputMode: "update",
  restartAt: [2],
  confs: { "spark.sql.streaming.stateStore.providerClass": "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider" },
  pyspark: PROCESSOR,
  arus: ({ df }) => {
    class RunningCount {
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      count: any;
      // biome-ignore lint/suspicious/noExplicitAny: as above
      init(handle: any) {
        this.count = handle.getValueState("count", "value BIGINT");
      }
      *handleInputRows(key: unknown[], rows: unknown[]) {
        const n = (this.count.exists() ? this.count.get().value : 0) + rows.length;
        this.count.update({ value: n });
        yield { k: key[0], count: n };
      }
      close() {}
    }
    return df.groupBy("k").transformWithState(new RunningCount(), "k STRING, count BIGINT", "Update", "None");
  },
  // Spark's TWS counts rows of its column families (and names the Python operator differently); the rows and batches are what matter here.
  compare: { ignoreProgress: ["operatorName", "numRowsTotal", "numRowsUpdated", "numRowsRemoved"] },
});
