import { defineCase, t } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    n = sum(len(pdf) for pdf in pdfs)
    yield pd.DataFrame({"k": [key[0]], "n": [n], "wm": [state.getCurrentWatermarkMs()]})

def build(spark, df):
    return (df.withWatermark("ts", "10 seconds").groupBy("k").applyInPandasWithState(
        fn, "k STRING, n BIGINT, wm BIGINT", "n BIGINT", "Update", GroupStateTimeout.NoTimeout))
`;

export default defineCase({
  description:
    "GroupState.getCurrentWatermarkMs with NoTimeout on a watermarked input: Spark allows it whenever the input has a watermark (GroupStateImpl checks watermarkPresent, not the timeout) and returns the batch's eviction watermark.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [[{ k: "a", ts: t(20) }], [{ k: "b", ts: t(25) }]],
  },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df
      .withWatermark("ts", "10 seconds")
      .groupBy("k")
      .flatMapGroupsWithState(
        // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
        (key: unknown[], rows: any[], state: any) => [{ k: key[0], n: rows.length, wm: state.getCurrentWatermarkMs() }],
        "k STRING, n BIGINT, wm BIGINT",
        "n BIGINT",
        "update",
        "NoTimeout",
      ),
  notes:
    "Spark's GroupStateImpl.getCurrentWatermarkMs (and PySpark's GroupState) throws only when no watermark is present on the operator's input (watermarkPresent = a child attribute carries the watermark delay), whatever the timeout conf: with NoTimeout it returns 0 in batch 0 and the eviction watermark (:10) in batch 1.",
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
