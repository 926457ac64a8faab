import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "A right outer range join whose left side has a NULL key with a late-looking event time: Spark pushes isnotnull(k) below the watermark (it does not read the event time) while isnotnull(ts) stays above, so the NULL-key row neither moves the watermark nor counts as input.",
  inputs: [
    {
      name: "l",
      schema: "k STRING, ts TIMESTAMP",
      watermark: { column: "ts", delay: "5 seconds" },
      batches: [
        [
          { k: "a", ts: t(1) },
          { k: null, ts: t(200) },
        ],
        [{ k: "b", ts: t(50) }],
        [{ k: "d", ts: t(60) }],
      ],
    },
    {
      name: "r",
      schema: "rk STRING, rt TIMESTAMP",
      watermark: { column: "rt", delay: "5 seconds" },
      batches: [
        [{ rk: "q", rt: t(300) }],
        [
          { rk: "b", rt: t(52) },
          { rk: "e", rt: t(53) },
        ],
        [{ rk: "d", rt: t(61) }],
      ],
    },
  ],
  outputMode: "append",
  pyspark: `def build(spark, l, r):
    return l.join(r, F.expr("k = rk AND rt >= ts AND rt <= ts + INTERVAL 5 SECONDS"), "right_outer")`,
  arus: ({ inputs, F }) => inputs.l.join(inputs.r, F.expr("k = rk AND rt >= ts AND rt <= ts + INTERVAL 5 SECONDS"), "right_outer"),
});
