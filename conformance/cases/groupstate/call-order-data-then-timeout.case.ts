import { defineCase, t } from "../../case.js";

// Each call records the clock when it runs (`at`); the batch transform ranks the calls of each
// micro-batch by it (`seq`). A counter in the function cannot do this on the PySpark side: the
// data calls and the timed-out calls run in two ApplyInPandasWithStatePythonRunners, i.e. two
// Python worker processes.
const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

import time

def fn(key, pdfs, state):
    at = time.time_ns()
    if state.hasTimedOut:
        state.remove()
        yield pd.DataFrame({"k": [key[0]], "kind": ["timeout"], "at": [at]})
        return
    last = 0
    for pdf in pdfs:
        last = max(last, round(pdf["ts"].max().timestamp() * 1000))
    state.update((1,))
    state.setTimeoutTimestamp(last + 1000)
    yield pd.DataFrame({"k": [key[0]], "kind": ["data"], "at": [at]})

def build(spark, df):
    return (df.withWatermark("ts", "5 seconds").groupBy("k").applyInPandasWithState(
        fn, "k STRING, kind STRING, at BIGINT", "n BIGINT", "Append", GroupStateTimeout.EventTimeTimeout))
`;

export default defineCase({
  description:
    "Order of calls in a batch: every key with data is called before the timed-out keys (FlatMapGroupsWithStateExecBase: newDataProcessorIter ++ timeoutProcessorIter), even when the timed-out key (a) sorts before the data key (c).",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [[{ k: "a", ts: t(1) }], [{ k: "b", ts: t(10) }], [{ k: "c", ts: t(11) }]],
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
          const at = process.hrtime.bigint();
          if (state.hasTimedOut) {
            state.remove();
            return [{ k: key[0], kind: "timeout", at }];
          }
          let last = 0;
          for (const r of rows) last = Math.max(last, (r.ts as Date).getTime());
          state.update({ n: 1 });
          state.setTimeoutTimestamp(last + 1000);
          return [{ k: key[0], kind: "data", at }];
        },
        "k STRING, kind STRING, at BIGINT",
        "n BIGINT",
        "append",
        "EventTimeTimeout",
      ),
  batch: { sql: "SELECT k, kind, CAST(rank() OVER (ORDER BY at) AS INT) AS seq FROM batch" },
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  // The state metrics are compared in event-time-timeout (arus counts a timer row per key there).
  compare: { ignoreProgress: ["operatorName", "numRowsTotal", "numRowsUpdated", "numRowsRemoved"] },
});
