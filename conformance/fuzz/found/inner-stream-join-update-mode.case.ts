import { defineCase, t } from "../../case.js";

// Found by conformance/fuzz (seed 13 case 30), minimised by hand.
export default defineCase({
  description:
    "An inner stream-stream join in Update output mode: Spark 4.3 runs it (it emits each joined row once, as in Append); only outer joins are refused in Update mode ('LeftOuter join between two streaming DataFrames/Datasets is not supported in Update output mode').",
  inputs: [
    {
      name: "l",
      schema: "k STRING, lt TIMESTAMP, v INT",
      batches: [[{ k: "a", lt: t(5), v: 1 }], [{ k: "a", lt: t(40), v: 2 }]],
    },
    {
      name: "r",
      schema: "rk STRING, rt TIMESTAMP, w INT",
      batches: [[{ rk: "a", rt: t(7), w: 2 }], [{ rk: "a", rt: t(41), w: 3 }]],
    },
  ],
  outputMode: "update",
  pyspark: `def build(spark, l, r):
    return l.join(r, F.expr("k = rk"))`,
  arus: ({ inputs, F }) => inputs.l.join(inputs.r, F.expr("k = rk")),
  notes:
    "Spark 4.3.0: batch 0 [{a,:05,1,a,:07,2}], batch 1 [{a,:40,2,a,:07,2}, {a,:05,1,a,:41,3}, {a,:40,2,a,:41,3}]; the same with watermarks and a time range. " +
    "arus refuses at start: 'Join between two streaming DataFrames/Datasets is not supported in Update output mode, only in Append output mode.' (streaming-checks.ts checkJoin refuses every join type; Spark only outer ones).",
});
