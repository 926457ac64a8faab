import { defineCase } from "../../case.js";

const PROCESSOR = `
from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor

class PerItem(StatefulProcessor):
    def init(self, handle):
        self.items = handle.getMapState("items", "item STRING", "qty BIGINT")

    def handleInputRows(self, key, rows, timerValues):
        touched = []
        for r in rows:
            old = self.items.getValue((r.item,))[0] if self.items.containsKey((r.item,)) else 0
            self.items.updateValue((r.item,), (old + r.qty,))
            if r.item not in touched:
                touched.append(r.item)
        if any(r == "reset" for r in touched):
            self.items.clear()
            yield Row(user=key[0], item="reset", qty=0, distinct_items=0)
            return
        n = sum(1 for _ in self.items.keys())
        for item in touched:
            yield Row(user=key[0], item=item, qty=self.items.getValue((item,))[0], distinct_items=n)

    def close(self):
        pass

def build(spark, df):
    return df.groupBy("user").transformWithState(PerItem(), "user STRING, item STRING, qty BIGINT, distinct_items INT", "Update", "None")
`;

export default defineCase({
  description:
    "transformWithState: a MapState per grouping key (quantity per item of each user), read, updated, counted and cleared; Update mode.",
  input: {
    schema: "user STRING, item STRING, qty INT",
    batches: [
      [
        { user: "sari", item: "rok", qty: 1 },
        { user: "sari", item: "tas", qty: 2 },
        { user: "budi", item: "kopi", qty: 1 },
        { user: "sari", item: "rok", qty: 3 },
      ],
      [
        { user: "sari", item: "kopi", qty: 1 },
        { user: "budi", item: "kopi", qty: 4 },
      ],
      [{ user: "sari", item: "reset", qty: 0 }],
      [{ user: "sari", item: "tas", qty: 5 }],
    ],
  },
  outputMode: "update",
  confs: { "spark.sql.streaming.stateStore.providerClass": "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider" },
  pyspark: PROCESSOR,
  arus: ({ df }) => {
    class PerItem {
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      items: any;
      // biome-ignore lint/suspicious/noExplicitAny: as above
      init(handle: any) {
        this.items = handle.getMapState("items", "item STRING", "qty BIGINT");
      }
      // biome-ignore lint/suspicious/noExplicitAny: as above
      *handleInputRows(key: unknown[], rows: any[]) {
        const touched: string[] = [];
        for (const r of rows) {
          const old = this.items.containsKey({ item: r.item }) ? this.items.getValue({ item: r.item }).qty : 0;
          this.items.updateValue({ item: r.item }, { qty: old + r.qty });
          if (!touched.includes(r.item)) touched.push(r.item);
        }
        if (touched.includes("reset")) {
          this.items.clear();
          yield { user: key[0], item: "reset", qty: 0, distinct_items: 0 };
          return;
        }
        const n = [...this.items.keys()].length;
        for (const item of touched) yield { user: key[0], item, qty: this.items.getValue({ item }).qty, distinct_items: n };
      }
      close() {}
    }
    return df.groupBy("user").transformWithState(new PerItem(), "user STRING, item STRING, qty BIGINT, distinct_items INT", "Update", "None");
  },
  compare: { ignoreProgress: ["operatorName", "numRowsTotal", "numRowsUpdated", "numRowsRemoved"] },
});
