import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Stream-stream left semi join with watermarks and a range condition: a left row is emitted once, on its first match (even when two right rows match it); unmatched left rows are dropped when evicted.",
  inputs: [
    {
      name: "imp",
      schema: "ad INT, it TIMESTAMP",
      watermark: { column: "it", delay: "5 seconds" },
      batches: [
        [
          { ad: 1, it: t(0) },
          { ad: 2, it: t(1) },
        ],
        [{ ad: 3, it: t(20) }],
        [{ ad: 4, it: t(60) }],
      ],
    },
    {
      name: "clk",
      schema: "cad INT, ct TIMESTAMP",
      watermark: { column: "ct", delay: "5 seconds" },
      batches: [
        [{ cad: 1, ct: t(2) }],
        [
          { cad: 1, ct: t(3) },
          { cad: 3, ct: t(21) },
        ],
        [{ cad: 9, ct: t(61) }],
      ],
    },
  ],
  outputMode: "append",
  pyspark: `def build(spark, imp, clk):
    return imp.join(clk, F.expr("ad = cad AND ct >= it AND ct <= it + interval 10 seconds"), "left_semi")`,
  arus: ({ inputs, F }) => inputs.imp.join(inputs.clk, F.expr("ad = cad AND ct >= it AND ct <= it + interval 10 seconds"), "left_semi"),
});
