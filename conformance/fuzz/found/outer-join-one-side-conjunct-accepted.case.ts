import { defineCase, t } from "../../case.js";

// Found by conformance/fuzz (seed 18 case 35, a left_semi), minimised by hand.
export default defineCase({
  description:
    "A left outer stream-stream join on k = rk AND v > 2 (watermarks on both sides, no time range): Spark 4.3 accepts and runs it, as if the left-only comparison v > 2 were a range condition; without that conjunct it refuses the same join (no watermark in the keys, no range condition).",
  inputs: [
    {
      name: "l",
      schema: "k STRING, lt TIMESTAMP, v INT",
      batches: [
        [
          { k: "a", lt: t(5), v: 3 },
          { k: "b", lt: t(6), v: 1 },
        ],
        [{ k: "a", lt: t(40), v: 4 }],
        [{ k: "b", lt: t(50), v: 5 }],
      ],
    },
    {
      name: "r",
      schema: "rk STRING, rt TIMESTAMP, w INT",
      batches: [[], [{ rk: "a", rt: t(7), w: 2 }], [{ rk: "b", rt: t(41), w: 3 }]],
    },
  ],
  outputMode: "append",
  pyspark: `def build(spark, l, r):
    return l.withWatermark("lt", "5 seconds").join(r.withWatermark("rt", "2 seconds"), F.expr("k = rk AND v > 2"), "left_outer")`,
  arus: ({ inputs, F }) =>
    inputs.l.withWatermark("lt", "5 seconds").join(inputs.r.withWatermark("rt", "2 seconds"), F.expr("k = rk AND v > 2"), "left_outer"),
  notes:
    "Spark 4.3.0: batch 0 [{b,:06,1,null,null,null}] (v > 2 fails: emitted at once with NULLs), batch 1 [{a,:05,3,a,:07,2}, {a,:40,4,a,:07,2}], batch 2 [{b,:50,5,b,:41,3}], batch 3 []; symmetricHashJoin numRowsTotal 1, 3, 5, 5, numRowsRemoved always 0 (the state is never evicted). " +
    "arus refuses at start: 'Stream-stream LeftOuter join between two streaming DataFrame/Datasets is not supported without a watermark in the join keys, or a watermark on the nullable side and an appropriate range condition'. " +
    "The same holds for left_semi (k = rk AND v > 2: Spark runs it, arus refuses); with a right-side conjunct (w < 5) both refuse. Probably StreamingJoinHelper.getStateValueWatermark finding a 'watermark' in a comparison that reads one side only.",
});
