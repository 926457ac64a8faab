import { defineCase } from "../../case.js";

// Found by the differential fuzzer (conformance/fuzz, seed 7 case 53), minimised by hand; "arus:" in the notes is arus before the fix.
export default defineCase({
  description:
    "A full outer stream-stream join followed by window(lt) (which filters lt IS NOT NULL): Spark turns the join into a left outer join (EliminateOuterJoin), then infers IsNotNull(rk) for its right side and pushes it into the right scan, so right rows with a NULL key are never read and do not move the right watermark.",
  inputs: [
    {
      name: "l",
      schema: "k STRING, lt TIMESTAMP, v INT",
      batches: [
        [{ k: "a", lt: "2024-01-01T00:00:05.000000Z", v: 1 }],
        [{ k: "a", lt: "2024-01-01T00:00:40.000000Z", v: 2 }],
        [{ k: "b", lt: "2024-01-01T00:01:40.000000Z", v: 3 }],
      ],
    },
    {
      name: "r",
      schema: "rk STRING, rt TIMESTAMP, w INT",
      batches: [
        [
          { rk: null, rt: "2024-01-01T00:00:30.000000Z", w: 1 },
          { rk: "a", rt: "2024-01-01T00:00:07.000000Z", w: 2 },
        ],
        [{ rk: null, rt: "2024-01-01T00:00:50.000000Z", w: 3 }],
        [{ rk: "b", rt: "2024-01-01T00:01:41.000000Z", w: 4 }],
      ],
    },
  ],
  outputMode: "append",
  pyspark: `def build(spark, l, r):
    return l.withWatermark("lt", "5 seconds").join(r.withWatermark("rt", "5 seconds"), F.expr("k = rk AND rt >= lt AND rt <= lt + interval 10 seconds"), "full_outer").groupBy(F.window("lt", "10 seconds")).count()`,
  arus: ({ inputs, F }) =>
    inputs.l
      .withWatermark("lt", "5 seconds")
      .join(inputs.r.withWatermark("rt", "5 seconds"), F.expr("k = rk AND rt >= lt AND rt <= lt + interval 10 seconds"), "full_outer")
      .groupBy(F.window("lt", "10 seconds"))
      .count(),
  notes:
    "Spark 4.3.0: batches 0-2 empty, batch 3 (no data) [{window [0:00,0:10), count 1}, {window [0:40,0:50), count 1}]; numInputRows 2, 1, 2, 0; watermark 0, :00, :02, 1:35. " +
    "arus (before the fix): batch 2 [{window [0:00,0:10), count 1}], batch 3 [{window [0:40,0:50), count 1}]; numInputRows 3, 2, 2, 0; watermark 0, :00, :35, 1:35 (the NULL-key right rows at :30 and :50 are read and move rt's watermark, so [0,10) closes a batch early). " +
    "With filter(lt IS NOT NULL) instead of the window: same numInputRows/watermark/state differences. A plain left_outer join with the same inputs matches Spark (both push IsNotNull(rk)). " +
    "Likewise a right_outer join followed by window(lt) becomes an inner join in Spark (fuzz seed 17 case 39: a NULL-key left row and the right rows failing a right-side conjunct w < 5 are not read: numInputRows 1 vs arus 4).",
});
