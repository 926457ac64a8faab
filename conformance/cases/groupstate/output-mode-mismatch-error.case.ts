import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    yield pd.DataFrame({"k": [key[0]]})

def build(spark, df):
    return df.groupBy("k").applyInPandasWithState(fn, "k STRING", "n BIGINT", "Update", GroupStateTimeout.NoTimeout)
`;

export default defineCase({
  description:
    "Without an aggregation the operator's output mode must be the query's: an Update-mode flatMapGroupsWithState in an Append query is refused at start() ('applyInPandasWithState in update mode is not supported with Append output mode').",
  input: { schema: "k STRING", batches: [[{ k: "a" }]] },
  outputMode: "append",
  pyspark: FUNC,
  arus: ({ df }) =>
    df.groupBy("k").flatMapGroupsWithState((key: unknown[]) => [{ k: key[0] }], "k STRING", "n BIGINT", "update", "NoTimeout"),
  expectError: "not supported with Append output mode",
});
