import { defineCase, t } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    n = state.get[0] if state.exists else 0
    last = state.get[1] if state.exists else 0
    for pdf in pdfs:
        n += len(pdf)
        last = max(last, round(pdf["ts"].max().timestamp() * 1000))
    if n >= 2:
        state.remove()
        yield pd.DataFrame({"k": [key[0]], "ended": [pd.Timestamp(last, unit="ms")]})
    else:
        state.update((n, last))

def build(spark, df):
    return (df.groupBy("k").applyInPandasWithState(
        fn, "k STRING, ended TIMESTAMP", "n BIGINT, last BIGINT", "Append", GroupStateTimeout.NoTimeout)
        .withWatermark("ended", "5 seconds")
        .groupBy(F.window("ended", "10 seconds")).count())
`;

export default defineCase({
  description:
    "Chaining: an Append-mode flatMapGroupsWithState (NoTimeout, no input watermark) emits a row per key once it has 2 rows; withWatermark on that output column, then a windowed count in Append mode. The watermark comes from the emitted rows; windows close in the trailing no-data batch.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(1) },
        { k: "a", ts: t(3) },
        { k: "b", ts: t(4) },
      ],
      [
        { k: "b", ts: t(12) },
        { k: "c", ts: t(15) },
      ],
      [
        { k: "c", ts: t(25) },
        { k: "d", ts: t(30) },
      ],
    ],
  },
  outputMode: "append",
  pyspark: FUNC,
  arus: ({ df, F }) =>
    df
      .groupBy("k")
      .flatMapGroupsWithState(
        // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
        (key: unknown[], rows: any[], state: any) => {
          let n = state.exists ? state.get.n : 0;
          let last = state.exists ? state.get.last : 0;
          for (const r of rows) {
            n += 1;
            last = Math.max(last, (r.ts as Date).getTime());
          }
          if (n >= 2) {
            state.remove();
            return [{ k: key[0], ended: new Date(last) }];
          }
          state.update({ n, last });
          return [];
        },
        "k STRING, ended TIMESTAMP",
        "n BIGINT, last BIGINT",
        "append",
        "NoTimeout",
      )
      .withWatermark("ended", "5 seconds")
      .groupBy(F.window("ended", "10 seconds"))
      .count(),
  notes:
    "Rows and the chained watermark agree; Spark's applyInPandasWithState reports numRowsRemoved 1 in batch 0 for key a, whose only call ends with remove() although it never had a state row (removed counts remove() calls).",
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
