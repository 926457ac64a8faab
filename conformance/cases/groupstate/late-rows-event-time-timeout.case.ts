import { defineCase, t } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    n = 0
    first = None
    for pdf in pdfs:
        n += len(pdf)
        if len(pdf):
            m = pdf["ts"].min()
            first = m if first is None or m < first else first
    total = (state.get[0] if state.exists else 0) + n
    state.update((total,))
    yield pd.DataFrame({"k": [key[0]], "n": [n], "total": [total], "first": [first]})

def build(spark, df):
    return (df.withWatermark("ts", "10 seconds").groupBy("k").applyInPandasWithState(
        fn, "k STRING, n BIGINT, total BIGINT, first TIMESTAMP", "total BIGINT", "Update",
        GroupStateTimeout.EventTimeTimeout))
`;

export default defineCase({
  description:
    "EventTimeTimeout: input rows at or below the late-events watermark (the previous batch's, README item 3) are dropped before the function is called (FlatMapGroupsWithStateExecBase.processDataWithPartition filters only when timeoutConf is EventTimeTimeout): in batch 2 (late watermark :10) :10.000000 is dropped and :10.000001 kept; a key whose rows are all late (c) is not called; numRowsDroppedByWatermark counts the dropped rows; in batch 3 :19 is kept (late watermark :11, eviction :20).",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [{ k: "a", ts: t(20) }],
      [{ k: "d", ts: t(21) }],
      [
        { k: "a", ts: t(10) },
        { k: "a", ts: t(10, 1) },
        { k: "b", ts: t(5) },
        { k: "b", ts: t(30) },
        { k: "c", ts: t(1) },
        { k: "c", ts: t(2) },
      ],
      [
        { k: "a", ts: t(19) },
        { k: "c", ts: t(21) },
      ],
    ],
  },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df
      .withWatermark("ts", "10 seconds")
      .groupBy("k")
      .flatMapGroupsWithState(
        // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
        (key: unknown[], rows: any[], state: any) => {
          let n = 0;
          let first: Date | null = null;
          for (const r of rows) {
            n += 1;
            if (first === null || r.ts < first) first = r.ts;
          }
          const total = (state.exists ? state.get.total : 0) + n;
          state.update({ total });
          return [{ k: key[0], n, total, first }];
        },
        "k STRING, n BIGINT, total BIGINT, first TIMESTAMP",
        "total BIGINT",
        "update",
        "EventTimeTimeout",
      ),
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
