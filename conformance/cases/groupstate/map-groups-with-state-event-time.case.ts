import { defineCase, t } from "../../case.js";

// arus's mapGroupsWithState (one row per call, Update mode) against applyInPandasWithState in
// Update mode yielding exactly one row per call: PySpark has no mapGroupsWithState.
const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    if state.hasTimedOut:
        n = state.get[0]
        state.remove()
        yield pd.DataFrame({"k": [key[0]], "n": [n], "status": ["closed"]})
        return
    n = state.get[0] if state.exists else 0
    last = 0
    for pdf in pdfs:
        n += len(pdf)
        last = max(last, round(pdf["ts"].max().timestamp() * 1000))
    state.update((n,))
    state.setTimeoutTimestamp(last + 3000)
    yield pd.DataFrame({"k": [key[0]], "n": [n], "status": ["open"]})

def build(spark, df):
    return (df.withWatermark("ts", "5 seconds").groupBy("k").applyInPandasWithState(
        fn, "k STRING, n BIGINT, status STRING", "n BIGINT", "Update", GroupStateTimeout.EventTimeTimeout))
`;

export default defineCase({
  description:
    "mapGroupsWithState (arus) vs applyInPandasWithState in Update mode returning one row per call (PySpark): a session count per key closed by an event-time timeout 3 s after the key's last row; the timed-out call returns the closing row.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(1) },
        { k: "b", ts: t(2) },
      ],
      [
        { k: "a", ts: t(4) },
        { k: "c", ts: t(12) },
      ],
      [{ k: "c", ts: t(14) }],
    ],
  },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df
      .withWatermark("ts", "5 seconds")
      .groupBy("k")
      .mapGroupsWithState(
        // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
        (key: unknown[], rows: any[], state: any) => {
          if (state.hasTimedOut) {
            const n = state.get.n;
            state.remove();
            return { k: key[0], n, status: "closed" };
          }
          let n = state.exists ? state.get.n : 0;
          let last = 0;
          for (const r of rows) {
            n += 1;
            last = Math.max(last, (r.ts as Date).getTime());
          }
          state.update({ n });
          state.setTimeoutTimestamp(last + 3000);
          return { k: key[0], n, status: "open" };
        },
        "k STRING, n BIGINT, status STRING",
        "n BIGINT",
        "EventTimeTimeout",
      ),
  notes:
    "Rows agree; Spark's state metrics count one row per key (value and timeout together): batch 0 total 2 / updated 2, batch 2 total 2 / updated 1 / removed 1, batch 3 total 1 / removed 1.",
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's (flat)MapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
