import { defineCase, t } from "../../case.js";

const PROCESSOR = `
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor

class Buffer(StatefulProcessor):
    def init(self, handle):
        self.handle = handle
        self.buf = handle.getListState("buf", "v INT")

    def handleInputRows(self, key, rows, timerValues):
        for t in list(self.handle.listTimers()):
            self.handle.deleteTimer(t)
        last = 0
        for r in rows:
            self.buf.appendValue((r.v,))
            last = max(last, int(r.ts.timestamp() * 1000))
        self.handle.registerTimer(last + 10000)
        return iter([])

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        vs = [x[0] for x in self.buf.get()]
        self.buf.clear()
        yield Row(k=key[0], total=sum(vs), n=len(vs), fired=expiredTimerInfo.getExpiryTimeInMs(), wm=timerValues.getCurrentWatermarkInMs())

    def close(self):
        pass

def build(spark, df):
    return (df.withWatermark("ts", "5 seconds").groupBy("k")
        .transformWithState(Buffer(), "k STRING, total BIGINT, n INT, fired BIGINT, wm BIGINT", "Append", "EventTime"))
`;

export default defineCase({
  description:
    "transformWithState, time mode EventTime: a ListState buffer per key flushed by an event-time timer 10 s after the key's last row; timers fire when the eviction watermark passes them (strictly), in the no-data batch the moved watermark asks for; late rows are dropped.",
  input: {
    schema: "k STRING, v INT, ts TIMESTAMP",
    batches: [
      [
        { k: "a", v: 1, ts: t(1) },
        { k: "a", v: 2, ts: t(3) },
        { k: "b", v: 5, ts: t(4) },
      ],
      [{ k: "b", v: 7, ts: t(18) }],
      [{ k: "c", v: 1, ts: t(30) }],
      [
        { k: "a", v: 100, ts: t(2) },
        { k: "c", v: 2, ts: t(45) },
      ],
    ],
  },
  outputMode: "append",
  confs: { "spark.sql.streaming.stateStore.providerClass": "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider" },
  pyspark: PROCESSOR,
  arus: ({ df }) => {
    class Buffer {
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      handle: any;
      // biome-ignore lint/suspicious/noExplicitAny: as above
      buf: any;
      // biome-ignore lint/suspicious/noExplicitAny: as above
      init(handle: any) {
        this.handle = handle;
        this.buf = handle.getListState("buf", "v INT");
      }
      // biome-ignore lint/suspicious/noExplicitAny: as above
      handleInputRows(_key: unknown[], rows: any[]) {
        for (const x of [...this.handle.listTimers()]) this.handle.deleteTimer(x);
        let last = 0;
        for (const r of rows) {
          this.buf.appendValue({ v: r.v });
          last = Math.max(last, r.ts.getTime());
        }
        this.handle.registerTimer(last + 10000);
        return [];
      }
      // biome-ignore lint/suspicious/noExplicitAny: as above
      *handleExpiredTimer(key: unknown[], timerValues: any, expiredTimerInfo: any) {
        const vs = [...this.buf.get()].map((x) => x.v as number);
        this.buf.clear();
        yield {
          k: key[0],
          total: vs.reduce((a, b) => a + b, 0),
          n: vs.length,
          fired: expiredTimerInfo.getExpiryTimeInMs(),
          wm: timerValues.getCurrentWatermarkInMs(),
        };
      }
      close() {}
    }
    return df
      .withWatermark("ts", "5 seconds")
      .groupBy("k")
      .transformWithState(new Buffer(), "k STRING, total BIGINT, n INT, fired BIGINT, wm BIGINT", "Append", "EventTime");
  },
  compare: { ignoreProgress: ["operatorName", "numRowsTotal", "numRowsUpdated", "numRowsRemoved"] },
});
