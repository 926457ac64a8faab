import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    yield pd.DataFrame({"k": [key[0]], "bucket": ["x"]})

def build(spark, df):
    return (df.groupBy("k").applyInPandasWithState(
        fn, "k STRING, bucket STRING", "n BIGINT", "Update", GroupStateTimeout.NoTimeout)
        .groupBy("bucket").count())
`;

export default defineCase({
  description:
    "flatMapGroupsWithState in Update mode followed by an aggregation is refused at start() ('applyInPandasWithState in update mode is not supported with aggregation on a streaming DataFrame/Dataset', _LEGACY_ERROR_TEMP_3102).",
  input: { schema: "k STRING", batches: [[{ k: "a" }]] },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df
      .groupBy("k")
      .flatMapGroupsWithState(
        (key: unknown[]) => [{ k: key[0], bucket: "x" }],
        "k STRING, bucket STRING",
        "n BIGINT",
        "update",
        "NoTimeout",
      )
      .groupBy("bucket")
      .count(),
  expectError: "not supported with aggregation",
});
