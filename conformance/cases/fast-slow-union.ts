/**
 * Shared setup of watermark/multiple-watermarks-{min,max}-policy (not a case itself: only `*.case.ts`
 * files are loaded): two `ts TIMESTAMP` streams, "fast" and "slow", each with a 5-second watermark,
 * unioned and counted per 10-second window. The two cases differ only in the watermark policy.
 *
 * Whatever this module returns ends up in the exported Spark spec, whose hash keys the cached Spark
 * results: changing a value here reruns Spark for both cases.
 */
import { type CaseDef, type FileInput, t } from "../case.js";

const input = (name: string, delay: string, batches: { ts: string }[][]): FileInput => ({
  name,
  schema: "ts TIMESTAMP",
  watermark: { column: "ts", delay },
  batches,
});

/** The inputs, the output mode and the query (both engines) of the fast/slow union. */
export function fastSlowUnion(): Pick<CaseDef, "inputs" | "outputMode" | "pyspark" | "arus"> {
  return {
    inputs: [
      input("fast", "5 seconds", [[{ ts: t(100) }], [{ ts: t(200) }], [{ ts: t(40) }]]),
      input("slow", "5 seconds", [[{ ts: t(50) }], [{ ts: t(60) }], [{ ts: t(41) }]]),
    ],
    outputMode: "append",
    pyspark: `def build(spark, fast, slow):
    return fast.union(slow).groupBy(F.window("ts", "10 seconds")).count()`,
    arus: ({ inputs, F }) => inputs.fast.union(inputs.slow).groupBy(F.window("ts", "10 seconds")).count(),
  };
}
