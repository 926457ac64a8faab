import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    n = (state.get[0] if state.exists else 0) + sum(len(pdf) for pdf in pdfs)
    state.update((n,))
    yield pd.DataFrame({"k": [key[0]], "bucket": ["big" if n >= 2 else "small"]})

def build(spark, df):
    return (df.groupBy("k").applyInPandasWithState(
        fn, "k STRING, bucket STRING", "n BIGINT", "Append", GroupStateTimeout.NoTimeout)
        .groupBy("bucket").count())
`;

export default defineCase({
  description:
    "flatMapGroupsWithState in Append mode followed by a streaming aggregation, query in Update mode: Spark allows it (with an aggregation in the query, only an Update-mode flatMapGroupsWithState is refused); two state operators report progress.",
  input: {
    schema: "k STRING",
    batches: [
      [{ k: "a" }, { k: "a" }, { k: "b" }],
      [{ k: "b" }, { k: "c" }],
      [{ k: "c" }, { k: "d" }],
    ],
  },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df
      .groupBy("k")
      .flatMapGroupsWithState(
        // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
        (key: unknown[], rows: any[], state: any) => {
          const n = (state.exists ? state.get.n : 0) + rows.length;
          state.update({ n });
          return [{ k: key[0], bucket: n >= 2 ? "big" : "small" }];
        },
        "k STRING, bucket STRING",
        "n BIGINT",
        "append",
        "NoTimeout",
      )
      .groupBy("bucket")
      .count(),
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
