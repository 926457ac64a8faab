import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    yield pd.DataFrame({"k": [key[0]]})

def build(spark, df):
    return (df.groupBy("k").count().groupBy("k").applyInPandasWithState(
        fn, "k STRING", "n BIGINT", "Append", GroupStateTimeout.NoTimeout))
`;

export default defineCase({
  description:
    "An Append-mode flatMapGroupsWithState after a streaming aggregation (query Update) is refused at start(): 'applyInPandasWithState in append mode is not supported after aggregation on a streaming DataFrame/Dataset'.",
  input: { schema: "k STRING", batches: [[{ k: "a" }]] },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df
      .groupBy("k")
      .count()
      .groupBy("k")
      .flatMapGroupsWithState((key: unknown[]) => [{ k: key[0] }], "k STRING", "n BIGINT", "append", "NoTimeout"),
  expectError: "not supported after aggregation",
});
