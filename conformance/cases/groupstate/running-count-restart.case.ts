import { defineCase } from "../../case.js";

// The same function written once in Python (applyInPandasWithState) and once in TypeScript
// (flatMapGroupsWithState), line for line.
const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def count_fn(key, pdfs, state):
    n = state.get[0] if state.exists else 0
    s = state.get[1] if state.exists else 0
    for pdf in pdfs:
        n += len(pdf)
        s += int(pdf["v"].sum())
    state.update((n, s))
    yield pd.DataFrame({"k": [key[0]], "n": [n], "s": [s]})

def build(spark, df):
    return df.groupBy("k").applyInPandasWithState(
        count_fn, "k STRING, n BIGINT, s BIGINT", "n BIGINT, s BIGINT", "Update", GroupStateTimeout.NoTimeout)
`;

export default defineCase({
  description:
    "flatMapGroupsWithState / applyInPandasWithState, NoTimeout, Update mode: a running count and sum per key in the GroupState, across a restart (state comes back from the checkpoint); every key with rows writes its state (numRowsUpdated = keys in the batch).",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "a", v: 2 },
        { k: "b", v: 3 },
      ],
      [{ k: "a", v: 4 }],
      [
        { k: "b", v: 5 },
        { k: "c", v: 6 },
      ],
      [{ k: "a", v: 7 }],
    ],
  },
  outputMode: "update",
  restartAt: [2],
  pyspark: FUNC,
  arus: ({ df }) =>
    df.groupBy("k").flatMapGroupsWithState(
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      (key: unknown[], rows: any[], state: any) => {
        let n = state.exists ? state.get.n : 0;
        let s = state.exists ? state.get.s : 0;
        for (const r of rows) {
          n += 1;
          s += r.v;
        }
        state.update({ n, s });
        return [{ k: key[0], n, s }];
      },
      "k STRING, n BIGINT, s BIGINT",
      "n BIGINT, s BIGINT",
      "update",
      "NoTimeout",
    ),
  // Spark's Python operator is FlatMapGroupsInPandasWithStateExec, shortName "applyInPandasWithState";
  // arus names the operator after Scala's flatMapGroupsWithState (its API). The state metrics are compared.
  compare: { ignoreProgress: ["operatorName"] },
});
