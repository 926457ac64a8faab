import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    if state.hasTimedOut:
        n = state.get[0]
        state.remove()
        yield pd.DataFrame({"k": [key[0]], "kind": ["timeout"], "n": [n]})
        return
    n = (state.get[0] if state.exists else 0) + sum(len(pdf) for pdf in pdfs)
    state.update((n,))
    state.setTimeoutDuration(1)
    yield pd.DataFrame({"k": [key[0]], "kind": ["data"], "n": [n]})

def build(spark, df):
    return df.groupBy("k").applyInPandasWithState(
        fn, "k STRING, kind STRING, n BIGINT", "n BIGINT", "Update", GroupStateTimeout.ProcessingTimeTimeout)
`;

export default defineCase({
  description:
    "ProcessingTimeTimeout: setTimeoutDuration(1) makes the key due 1 ms after its batch's processing time; the next batch (a later run: Trigger.Once, restarted per file, so the batch time has moved by seconds) calls it timed out, after the keys with data. Trigger.Once because a ProcessingTimeTimeout query asks for a batch after every batch (shouldRunAnotherBatch) and would not end under availableNow.",
  input: {
    schema: "k STRING",
    batches: [[{ k: "a" }, { k: "a" }], [{ k: "b" }], [{ k: "a" }, { k: "c" }]],
  },
  outputMode: "update",
  trigger: "once",
  restartAt: [1, 2],
  pyspark: FUNC,
  arus: ({ df }) =>
    df.groupBy("k").flatMapGroupsWithState(
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      (key: unknown[], rows: any[], state: any) => {
        if (state.hasTimedOut) {
          const n = state.get.n;
          state.remove();
          return [{ k: key[0], kind: "timeout", n }];
        }
        const n = (state.exists ? state.get.n : 0) + rows.length;
        state.update({ n });
        state.setTimeoutDuration(1);
        return [{ k: key[0], kind: "data", n }];
      },
      "k STRING, kind STRING, n BIGINT",
      "n BIGINT",
      "update",
      "ProcessingTimeTimeout",
    ),
  notes:
    "Rows agree; Spark's state metrics count one row per key (value and timeout together): batch 0 total 1 / updated 1, batch 1 total 1 / updated 1 / removed 1, batch 2 total 2 / updated 2 / removed 1.",
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
