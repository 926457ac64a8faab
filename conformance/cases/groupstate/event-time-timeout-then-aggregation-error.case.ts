import { defineCase, t } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    yield pd.DataFrame({"k": [key[0]], "bucket": ["x"]})

def build(spark, df):
    return (df.withWatermark("ts", "10 seconds").groupBy("k").applyInPandasWithState(
        fn, "k STRING, bucket STRING", "n BIGINT", "Append", GroupStateTimeout.EventTimeTimeout)
        .groupBy("bucket").count())
`;

export default defineCase({
  description:
    "An Append-mode flatMapGroupsWithState with EventTimeTimeout followed by another stateful operator (an aggregation, query in Update mode) is refused at start(): UnsupportedOperationChecker.checkStreamingQueryGlobalWatermarkLimit ('Detected pattern of possible correctness issue due to global watermark'; spark.sql.streaming.statefulOperator.checkCorrectness.enabled is on by default).",
  input: { schema: "k STRING, ts TIMESTAMP", batches: [[{ k: "a", ts: t(1) }]] },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df
      .withWatermark("ts", "10 seconds")
      .groupBy("k")
      .flatMapGroupsWithState(
        (key: unknown[]) => [{ k: key[0], bucket: "x" }],
        "k STRING, bucket STRING",
        "n BIGINT",
        "append",
        "EventTimeTimeout",
      )
      .groupBy("bucket")
      .count(),
  notes:
    "Spark: UnsupportedOperationChecker.checkStreamingQueryGlobalWatermarkLimit \u2014 any stateful operator (aggregation, stream-stream join, [flatMap]GroupsWithState, applyInPandasWithState, dedup on an event-time column, dropDuplicatesWithinWatermark, transformWithState) with, below it, a FlatMapGroupsWithState / FlatMapGroupsInPandasWithState with EventTimeTimeout, or a streaming Aggregate/Distinct when the output mode is not Append, fails analysis with _LEGACY_ERROR_TEMP_3102 'Detected pattern of possible correctness issue due to global watermark...'.",
  expectError: "correctness",
});
