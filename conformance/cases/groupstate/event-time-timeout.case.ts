import { defineCase, t } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    wm = state.getCurrentWatermarkMs()
    if state.hasTimedOut:
        n, last = state.get
        state.remove()
        yield pd.DataFrame({"k": [key[0]], "kind": ["timeout"], "n": [n], "last": [last], "wm": [wm]})
        return
    n = state.get[0] if state.exists else 0
    last = state.get[1] if state.exists else 0
    for pdf in pdfs:
        n += len(pdf)
        last = max(last, round(pdf["ts"].max().timestamp() * 1000))
    state.update((n, last))
    state.setTimeoutTimestamp(last + 5000)
    yield pd.DataFrame({"k": [key[0]], "kind": ["data"], "n": [n], "last": [last], "wm": [wm]})

def build(spark, df):
    return (df.withWatermark("ts", "10 seconds").groupBy("k").applyInPandasWithState(
        fn, "k STRING, kind STRING, n BIGINT, last BIGINT, wm BIGINT", "n BIGINT, last BIGINT", "Append",
        GroupStateTimeout.EventTimeTimeout))
`;

export default defineCase({
  description:
    "EventTimeTimeout with withWatermark('ts', '10 seconds'): each call sets the timeout to the key's last event time + 5 s; a key times out (called with no rows, hasTimedOut) once the eviction watermark is strictly past it, after the keys with data; a key with data in the batch is not timed out (its data call reset the timeout); a timeout equal to the watermark does not fire; the trailing no-data batch fires timeouts; getCurrentWatermarkMs is the eviction watermark; state comes back after a restart.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [
        { k: "a", ts: t(1) },
        { k: "a", ts: t(3) },
        { k: "b", ts: t(4) },
      ],
      [{ k: "c", ts: t(20) }],
      [{ k: "b", ts: t(11) }],
      [
        { k: "d", ts: t(27) },
        { k: "e", ts: t(12) },
      ],
    ],
  },
  outputMode: "append",
  restartAt: [3],
  pyspark: FUNC,
  arus: ({ df }) =>
    df
      .withWatermark("ts", "10 seconds")
      .groupBy("k")
      .flatMapGroupsWithState(
        // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
        (key: unknown[], rows: any[], state: any) => {
          const wm = state.getCurrentWatermarkMs();
          if (state.hasTimedOut) {
            const { n, last } = state.get;
            state.remove();
            return [{ k: key[0], kind: "timeout", n, last, wm }];
          }
          let n = state.exists ? state.get.n : 0;
          let last = state.exists ? state.get.last : 0;
          for (const r of rows) {
            n += 1;
            last = Math.max(last, (r.ts as Date).getTime());
          }
          state.update({ n, last });
          state.setTimeoutTimestamp(last + 5000);
          return [{ k: key[0], kind: "data", n, last, wm }];
        },
        "k STRING, kind STRING, n BIGINT, last BIGINT, wm BIGINT",
        "n BIGINT, last BIGINT",
        "append",
        "EventTimeTimeout",
      ),
  notes:
    "Spark keeps one state row per key holding the value and its timeout (StateManager with timeout column): numRowsTotal = keys, numRowsUpdated = calls that wrote the row (updated, removed with a timeout, or timeout changed), numRowsRemoved = calls ending in remove() without a timeout. The rows agree with Spark in every batch.",
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
