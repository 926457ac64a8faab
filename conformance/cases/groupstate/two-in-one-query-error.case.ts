import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def first(key, pdfs, state):
    for pdf in pdfs:
        yield pd.DataFrame({"k": pdf["k"], "g": pdf["k"].str.upper()})

def second(key, pdfs, state):
    n = sum(len(pdf) for pdf in pdfs)
    yield pd.DataFrame({"g": [key[0]], "n": [n]})

def build(spark, df):
    return (df.groupBy("k").applyInPandasWithState(first, "k STRING, g STRING", "n BIGINT", "Append", GroupStateTimeout.NoTimeout)
        .groupBy("g").applyInPandasWithState(second, "g STRING, n BIGINT", "n BIGINT", "Append", GroupStateTimeout.NoTimeout))
`;

export default defineCase({
  description:
    "Two applyInPandasWithState operators in one query, both Append, query Append: PySpark refuses it at start() ('Multiple applyInPandasWithStates are not supported on a streaming DataFrames/Datasets', UnsupportedOperationChecker), although Scala allows several flatMapGroupsWithState in Append mode.",
  input: { schema: "k STRING", batches: [[{ k: "a" }, { k: "b" }]] },
  outputMode: "append",
  pyspark: FUNC,
  arus: ({ df }) =>
    df
      .groupBy("k")
      .flatMapGroupsWithState(
        // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
        (_key: unknown[], rows: any[]) => rows.map((r) => ({ k: r.k, g: String(r.k).toUpperCase() })),
        "k STRING, g STRING",
        "n BIGINT",
        "append",
        "NoTimeout",
      )
      .groupBy("g")
      .flatMapGroupsWithState(
        // biome-ignore lint/suspicious/noExplicitAny: as above
        (key: unknown[], rows: any[]) => [{ g: key[0], n: rows.length }],
        "g STRING, n BIGINT",
        "n BIGINT",
        "append",
        "NoTimeout",
      ),
  notes:
    "PySpark-only rule (UnsupportedOperationChecker.checkForStreaming): more than one FlatMapGroupsInPandasWithState in a plan is refused; Scala allows several flatMapGroupsWithState when all are Append and the query is Append.",
  expectError: "Multiple applyInPandasWithStates are not supported",
});
