import { defineCase, t } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    wm = state.getCurrentWatermarkMs()
    if state.hasTimedOut:
        yield pd.DataFrame({"k": [key[0]], "kind": ["timeout"], "n": [state.get[0]], "wm": [wm]})
        return
    n = state.get[0] if state.exists else 0
    last = 0
    for pdf in pdfs:
        n += len(pdf)
        last = max(last, round(pdf["ts"].max().timestamp() * 1000))
    state.update((n,))
    state.setTimeoutTimestamp(last + 1000)
    yield pd.DataFrame({"k": [key[0]], "kind": ["data"], "n": [n], "wm": [wm]})

def build(spark, df):
    return (df.withWatermark("ts", "5 seconds").groupBy("k").applyInPandasWithState(
        fn, "k STRING, kind STRING, n BIGINT, wm BIGINT", "n BIGINT", "Append", GroupStateTimeout.EventTimeTimeout))
`;

export default defineCase({
  description:
    "EventTimeTimeout: the timed-out call for a key neither updates nor removes its state nor sets a new timeout. What happens to the key's stored timeout decides whether it times out again in later batches (Scala's FlatMapGroupsWithStateExec rewrites the state row when the timeout changed from the stored one; the Python runner compares with the timeout of a fresh GroupStateImpl, -1).",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [[{ k: "a", ts: t(1) }], [{ k: "b", ts: t(10) }], [{ k: "b", ts: t(11) }], [{ k: "b", ts: t(12) }]],
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
          const wm = state.getCurrentWatermarkMs();
          if (state.hasTimedOut) return [{ k: key[0], kind: "timeout", n: state.get.n, wm }];
          let n = state.exists ? state.get.n : 0;
          let last = 0;
          for (const r of rows) {
            n += 1;
            last = Math.max(last, (r.ts as Date).getTime());
          }
          state.update({ n });
          state.setTimeoutTimestamp(last + 1000);
          return [{ k: key[0], kind: "data", n, wm }];
        },
        "k STRING, kind STRING, n BIGINT, wm BIGINT",
        "n BIGINT",
        "append",
        "EventTimeTimeout",
      ),
  notes:
    "PySpark 4.3: key a times out in batch 2 and again in batches 3 and 4 (every later batch). ApplyInPandasWithStatePythonRunner hands back oldTimeoutTimestamp from the Python GroupState, which was built from the JVM GroupStateImpl JSON of GroupStateImpl.createForStreaming (timeoutTimestamp = NO_TIMESTAMP, -1), not from the stored row; a call with no update/remove and no timeout set has currentTimeout -1 == old -1, so FlatMapGroupsInPandasWithStateExec writes nothing and the stored timeout (already passed) stays. Scala's FlatMapGroupsWithStateExec compares with stateData.timeoutTimestamp and clears it (the documented 'timeout is reset on every call').",
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
