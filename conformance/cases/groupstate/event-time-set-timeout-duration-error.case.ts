import { defineCase, t } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    state.update((1,))
    state.setTimeoutDuration(10000)
    yield pd.DataFrame({"k": [key[0]]})

def build(spark, df):
    return (df.withWatermark("ts", "10 seconds").groupBy("k").applyInPandasWithState(
        fn, "k STRING", "n BIGINT", "Update", GroupStateTimeout.EventTimeTimeout))
`;

export default defineCase({
  description: "EventTimeTimeout: GroupState.setTimeoutDuration (processing-time only) fails the batch (PySpark's CANNOT_WITHOUT).",
  input: { schema: "k STRING, ts TIMESTAMP", batches: [[{ k: "a", ts: t(1) }]] },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df
      .withWatermark("ts", "10 seconds")
      .groupBy("k")
      .flatMapGroupsWithState(
        // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
        (key: unknown[], _rows: any[], state: any) => {
          state.update({ n: 1 });
          state.setTimeoutDuration(10000);
          return [{ k: key[0] }];
        },
        "k STRING",
        "n BIGINT",
        "update",
        "EventTimeTimeout",
      ),
  expectError: "CANNOT_WITHOUT",
});
