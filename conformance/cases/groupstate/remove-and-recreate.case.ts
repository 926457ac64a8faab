import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    vs = [int(x) for pdf in pdfs for x in pdf["v"]]
    had = state.exists
    if any(v < 0 for v in vs):
        state.remove()
        yield pd.DataFrame({"k": [key[0]], "n": [0], "had_state": [had], "exists_now": [state.exists]})
        return
    n = (state.get[0] if state.exists else 0) + len(vs)
    state.update((n,))
    yield pd.DataFrame({"k": [key[0]], "n": [n], "had_state": [had], "exists_now": [state.exists]})

def build(spark, df):
    return df.groupBy("k").applyInPandasWithState(
        fn, "k STRING, n BIGINT, had_state BOOLEAN, exists_now BOOLEAN", "n BIGINT", "Update", GroupStateTimeout.NoTimeout)
`;

export default defineCase({
  description:
    "GroupState.remove() (NoTimeout, Update): a negative value removes the key's state; the key starts again from nothing in a later batch. Removing a key that has no state (c in batch 1) still counts in Spark's numRowsRemoved (the operator counts every remove() call without a timeout, FlatMapGroupsInPandasWithStateExec).",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 2 },
        { k: "b", v: 3 },
      ],
      [
        { k: "a", v: -1 },
        { k: "c", v: -1 },
      ],
      [
        { k: "a", v: 5 },
        { k: "b", v: 6 },
      ],
      [
        { k: "a", v: -1 },
        { k: "a", v: 7 },
      ],
      [{ k: "a", v: 8 }],
    ],
  },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df.groupBy("k").flatMapGroupsWithState(
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      (key: unknown[], rows: any[], state: any) => {
        const vs = rows.map((r) => r.v as number);
        const had = state.exists;
        if (vs.some((v) => v < 0)) {
          state.remove();
          return [{ k: key[0], n: 0, had_state: had, exists_now: state.exists }];
        }
        const n = (state.exists ? state.get.n : 0) + vs.length;
        state.update({ n });
        return [{ k: key[0], n, had_state: had, exists_now: state.exists }];
      },
      "k STRING, n BIGINT, had_state BOOLEAN, exists_now BOOLEAN",
      "n BIGINT",
      "update",
      "NoTimeout",
    ),
  notes:
    "Spark counts numRowsRemoved per remove() call (without a timeout), not per state row that existed: batch 1 reports removed 2 (a, which had state, and c, which never had any).",
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
