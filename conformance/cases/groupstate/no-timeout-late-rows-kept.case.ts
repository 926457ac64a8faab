import { defineCase, t } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    n = 0
    for pdf in pdfs:
        n += len(pdf)
    total = (state.get[0] if state.exists else 0) + n
    state.update((total,))
    yield pd.DataFrame({"k": [key[0]], "n": [n], "total": [total]})

def build(spark, df):
    return (df.withWatermark("ts", "10 seconds").groupBy("k").applyInPandasWithState(
        fn, "k STRING, n BIGINT, total BIGINT", "total BIGINT", "Update", GroupStateTimeout.NoTimeout))
`;

export default defineCase({
  description:
    "NoTimeout on a watermarked input: late rows are NOT dropped (Spark filters late rows for [flatMap]GroupsWithState only with EventTimeTimeout), so in batch 2 (late watermark :10) every row, :01 and :05 included, reaches the function and numRowsDroppedByWatermark stays 0.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [{ k: "a", ts: t(20) }],
      [{ k: "d", ts: t(21) }],
      [
        { k: "a", ts: t(10) },
        { k: "b", ts: t(5) },
        { k: "b", ts: t(30) },
        { k: "c", ts: t(1) },
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
          const n = rows.length;
          const total = (state.exists ? state.get.total : 0) + n;
          state.update({ total });
          return [{ k: key[0], n, total }];
        },
        "k STRING, n BIGINT, total BIGINT",
        "total BIGINT",
        "update",
        "NoTimeout",
      ),
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
