import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    n = state.get[0] if state.exists else 0
    for pdf in pdfs:
        n += len(pdf)
    if n >= 3:
        state.remove()
        yield pd.DataFrame({"k": [key[0]], "n": [n]})
    else:
        state.update((n,))

def build(spark, df):
    return df.groupBy("k").applyInPandasWithState(
        fn, "k STRING, n BIGINT", "n BIGINT", "Append", GroupStateTimeout.NoTimeout)
`;

export default defineCase({
  description:
    "flatMapGroupsWithState in Append mode (NoTimeout): a key is emitted only once its count reaches 3, and its state is removed then; calls that emit nothing keep counting.",
  input: {
    schema: "k STRING",
    batches: [
      [{ k: "a" }, { k: "a" }, { k: "b" }],
      [{ k: "a" }, { k: "b" }, { k: "c" }],
      [{ k: "b" }, { k: "c" }],
      [{ k: "a" }, { k: "a" }, { k: "a" }, { k: "a" }],
    ],
  },
  outputMode: "append",
  pyspark: FUNC,
  arus: ({ df }) =>
    df.groupBy("k").flatMapGroupsWithState(
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      (key: unknown[], rows: any[], state: any) => {
        let n = state.exists ? state.get.n : 0;
        n += rows.length;
        if (n >= 3) {
          state.remove();
          return [{ k: key[0], n }];
        }
        state.update({ n });
        return [];
      },
      "k STRING, n BIGINT",
      "n BIGINT",
      "append",
      "NoTimeout",
    ),
  notes:
    "Spark 4.3 (FlatMapGroupsInPandasWithStateExec.process, same code in Scala's FlatMapGroupsWithStateExec.callFunctionAndUpdateState): every call that ends with remove() and no timeout set does stateManager.removeState and numRemovedStateRows += 1, whether or not the key had a state row: batch 3 (key a, no state since batch 1, n reaches 4 and is removed) reports removed 1.",
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
