import { defineCase, t } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    if state.hasTimedOut:
        existed = state.exists
        state.remove()
        yield pd.DataFrame({"k": [key[0]], "kind": ["timeout"], "exists": [existed]})
        return
    last = 0
    for pdf in pdfs:
        last = max(last, round(pdf["ts"].max().timestamp() * 1000))
    state.update((1,))
    state.remove()
    state.setTimeoutTimestamp(last + 1000)
    yield pd.DataFrame({"k": [key[0]], "kind": ["data"], "exists": [state.exists]})

def build(spark, df):
    return (df.withWatermark("ts", "5 seconds").groupBy("k").applyInPandasWithState(
        fn, "k STRING, kind STRING, exists BOOLEAN", "n BIGINT", "Append", GroupStateTimeout.EventTimeTimeout))
`;

export default defineCase({
  description:
    "EventTimeTimeout: remove() followed by setTimeoutTimestamp keeps the key with no value but a timeout (Spark writes a state row with a null value, counted in numRowsTotal and numRowsUpdated); when the watermark passes it, the key is called timed out with exists false, and remove() then drops the row (numRowsRemoved).",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [[{ k: "a", ts: t(1) }], [{ k: "b", ts: t(10) }]],
  },
  outputMode: "append",
  pyspark: FUNC,
  arus: ({ df }) =>
    df
      .withWatermark("ts", "5 seconds")
      .groupBy("k")
      .flatMapGroupsWithState(
        // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
        (key: unknown[], rows: any[], state: any) => {
          if (state.hasTimedOut) {
            const existed = state.exists;
            state.remove();
            return [{ k: key[0], kind: "timeout", exists: existed }];
          }
          let last = 0;
          for (const r of rows) last = Math.max(last, (r.ts as Date).getTime());
          state.update({ n: 1 });
          state.remove();
          state.setTimeoutTimestamp(last + 1000);
          return [{ k: key[0], kind: "data", exists: state.exists }];
        },
        "k STRING, kind STRING, exists BOOLEAN",
        "n BIGINT",
        "append",
        "EventTimeTimeout",
      ),
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
