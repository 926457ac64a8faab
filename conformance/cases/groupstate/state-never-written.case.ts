import { defineCase } from "../../case.js";

const FUNC = `
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    vs = [int(x) for pdf in pdfs for x in pdf["v"]]
    opt = state.getOption
    existed = state.exists
    prev = None if opt is None else opt[0]
    if any(v > 10 for v in vs):
        state.update((max(vs),))
    yield pd.DataFrame({"k": [key[0]], "existed": [existed], "prev": [prev], "exists_after": [state.exists]})

def build(spark, df):
    return df.groupBy("k").applyInPandasWithState(
        fn, "k STRING, existed BOOLEAN, prev INT, exists_after BOOLEAN", "best INT", "Update", GroupStateTimeout.NoTimeout)
`;

export default defineCase({
  description:
    "State only written on a condition: keys whose function never calls update() keep no state row (numRowsTotal / numRowsUpdated count only the written keys); exists is false and getOption None/null for them, and the written value comes back in later batches.",
  input: {
    schema: "k STRING, v INT",
    batches: [
      [
        { k: "a", v: 1 },
        { k: "b", v: 2 },
      ],
      [
        { k: "a", v: 11 },
        { k: "b", v: 3 },
      ],
      [
        { k: "a", v: 4 },
        { k: "b", v: 5 },
      ],
    ],
  },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df.groupBy("k").flatMapGroupsWithState(
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      (key: unknown[], rows: any[], state: any) => {
        const vs = rows.map((r) => r.v as number);
        const opt = state.getOption;
        const existed = state.exists;
        const prev = opt === null ? null : opt.best;
        if (vs.some((v) => v > 10)) state.update({ best: Math.max(...vs) });
        return [{ k: key[0], existed, prev, exists_after: state.exists }];
      },
      "k STRING, existed BOOLEAN, prev INT, exists_after BOOLEAN",
      "best INT",
      "update",
      "NoTimeout",
    ),
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
