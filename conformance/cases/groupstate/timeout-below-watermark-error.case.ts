import { defineCase, t } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    last = 0
    for pdf in pdfs:
        last = max(last, round(pdf["ts"].max().timestamp() * 1000))
    state.update((1,))
    state.setTimeoutTimestamp(last - 20000)
    yield pd.DataFrame({"k": [key[0]], "timeout": [last - 20000]})

def build(spark, df):
    return (df.withWatermark("ts", "10 seconds").groupBy("k").applyInPandasWithState(
        fn, "k STRING, timeout BIGINT", "n BIGINT", "Append", GroupStateTimeout.EventTimeTimeout))
`;

export default defineCase({
  description:
    "EventTimeTimeout: setTimeoutTimestamp below the current watermark fails the query (PySpark's GroupState raises INVALID_TIMEOUT_TIMESTAMP). Batch 0 (watermark 0) accepts last - 20 s; batch 1 (watermark :10) refuses :01.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [[{ k: "a", ts: t(20) }], [{ k: "a", ts: t(21) }]],
  },
  outputMode: "append",
  pyspark: FUNC,
  arus: ({ df }) =>
    df
      .withWatermark("ts", "10 seconds")
      .groupBy("k")
      .flatMapGroupsWithState(
        // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
        (key: unknown[], rows: any[], state: any) => {
          let last = 0;
          for (const r of rows) last = Math.max(last, (r.ts as Date).getTime());
          state.update({ n: 1 });
          state.setTimeoutTimestamp(last - 20000);
          return [{ k: key[0], timeout: last - 20000 }];
        },
        "k STRING, timeout BIGINT",
        "n BIGINT",
        "append",
        "EventTimeTimeout",
      ),
  expectError: "INVALID_TIMEOUT_TIMESTAMP",
});
