import { defineCase } from "../../case.js";

const PROCESSOR = `
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor

class Ping(StatefulProcessor):
    def init(self, handle):
        self.h = handle

    def handleInputRows(self, key, rows, timerValues):
        now = timerValues.getCurrentProcessingTimeInMs()
        self.h.registerTimer(now)
        self.h.registerTimer(now + 3600000)
        yield Row(k=key[0], kind="data", n=sum(1 for _ in rows))

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        yield Row(k=key[0], kind="timer", n=len(list(self.h.listTimers())))

    def close(self):
        pass

def build(spark, df):
    return df.groupBy("k").transformWithState(Ping(), "k STRING, kind STRING, n INT", "Update", "ProcessingTime")
`;

export default defineCase({
  description:
    "transformWithState processing-time timers: a timer at the batch's own processing time fires in that batch, after the key's rows (PySpark fires timers with expiry <= the batch time); one an hour ahead never fires, and listTimers in the handler still lists the firing timer. Run with Trigger.Once: under availableNow PySpark 4.3 never ends a ProcessingTime transformWithState (it asks for a no-data batch after every batch), so that trigger cannot run here.",
  input: {
    schema: "k STRING",
    batches: [[{ k: "a" }, { k: "a" }, { k: "b" }], [{ k: "a" }], [{ k: "c" }]],
  },
  outputMode: "update",
  trigger: "once",
  restartAt: [1, 2],
  confs: { "spark.sql.streaming.stateStore.providerClass": "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider" },
  pyspark: PROCESSOR,
  arus: ({ df }) => {
    class Ping {
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      h: any;
      // biome-ignore lint/suspicious/noExplicitAny: as above
      init(handle: any) {
        this.h = handle;
      }
      // biome-ignore lint/suspicious/noExplicitAny: as above
      *handleInputRows(key: unknown[], rows: unknown[], timerValues: any) {
        const now = timerValues.getCurrentProcessingTimeInMs();
        this.h.registerTimer(now);
        this.h.registerTimer(now + 3600000);
        yield { k: key[0], kind: "data", n: rows.length };
      }
      *handleExpiredTimer(key: unknown[]) {
        yield { k: key[0], kind: "timer", n: [...this.h.listTimers()].length };
      }
      close() {}
    }
    return df.groupBy("k").transformWithState(new Ping(), "k STRING, kind STRING, n INT", "Update", "ProcessingTime");
  },
  compare: { ignoreProgress: ["operatorName", "numRowsTotal", "numRowsUpdated", "numRowsRemoved"] },
});
