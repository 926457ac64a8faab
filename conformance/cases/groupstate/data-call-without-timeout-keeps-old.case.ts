import { defineCase, t } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    wm = state.getCurrentWatermarkMs()
    if state.hasTimedOut:
        state.remove()
        yield pd.DataFrame({"k": [key[0]], "kind": ["timeout"], "wm": [wm]})
        return
    last = 0
    for pdf in pdfs:
        last = max(last, round(pdf["ts"].max().timestamp() * 1000))
    if not state.exists:
        state.update((1,))
        state.setTimeoutTimestamp(last + 2000)
        yield pd.DataFrame({"k": [key[0]], "kind": ["first"], "wm": [wm]})
    else:
        yield pd.DataFrame({"k": [key[0]], "kind": ["seen"], "wm": [wm]})

def build(spark, df):
    return (df.withWatermark("ts", "5 seconds").groupBy("k").applyInPandasWithState(
        fn, "k STRING, kind STRING, wm BIGINT", "n BIGINT", "Append", GroupStateTimeout.EventTimeTimeout))
`;

export default defineCase({
  description:
    "EventTimeTimeout: a data call that neither updates the state nor sets a timeout (key a in batch 1). Spark's rule for Scala: each call starts with no timeout, so one not set again is cleared; whether applyInPandasWithState clears it (the Python runner writes the state row only when updated, removed, or the timeout differs from -1) shows in batch 2, where the watermark passes a's old timeout.",
  input: {
    schema: "k STRING, ts TIMESTAMP",
    batches: [
      [{ k: "a", ts: t(1) }],
      [
        { k: "a", ts: t(2) },
        { k: "b", ts: t(20) },
      ],
      [{ k: "c", ts: t(21) }],
    ],
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
          if (state.hasTimedOut) {
            state.remove();
            return [{ k: key[0], kind: "timeout", wm }];
          }
          let last = 0;
          for (const r of rows) last = Math.max(last, (r.ts as Date).getTime());
          if (!state.exists) {
            state.update({ n: 1 });
            state.setTimeoutTimestamp(last + 2000);
            return [{ k: key[0], kind: "first", wm }];
          }
          return [{ k: key[0], kind: "seen", wm }];
        },
        "k STRING, kind STRING, wm BIGINT",
        "n BIGINT",
        "append",
        "EventTimeTimeout",
      ),
  notes:
    "PySpark 4.3: key a's data call in batch 1 writes nothing (batch 1: updated 1, only b), so its batch-0 timeout (:03) survives and fires in batch 2 (watermark :15). Same cause as timed-out-key-untouched-fires-again: the Python runner's oldTimeoutTimestamp is -1, not the stored timeout; Scala would clear a's timeout in batch 1.",
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
