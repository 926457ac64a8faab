import { defineCase } from "../../case.js";

const PROCESSOR = `
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor

class Bad(StatefulProcessor):
    def init(self, handle):
        self.h = handle

    def handleInputRows(self, key, rows, timerValues):
        self.h.registerTimer(1000)
        yield Row(k=key[0])

    def close(self):
        pass

def build(spark, df):
    return df.groupBy("k").transformWithState(Bad(), "k STRING", "Update", "None")
`;

export default defineCase({
  description: "transformWithState: registering a timer in time mode None fails the query while the batch runs.",
  input: { schema: "k STRING", batches: [[{ k: "a" }]] },
  outputMode: "update",
  confs: { "spark.sql.streaming.stateStore.providerClass": "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider" },
  pyspark: PROCESSOR,
  arus: ({ df }) =>
    df.groupBy("k").transformWithState(
      {
        // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
        h: null as any,
        // biome-ignore lint/suspicious/noExplicitAny: as above
        init(handle: any) {
          this.h = handle;
        },
        handleInputRows(key: unknown[]) {
          this.h.registerTimer(1000);
          return [{ k: key[0] }];
        },
      },
      "k STRING",
      "Update",
      "None",
    ),
  expectError: "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE",
});
