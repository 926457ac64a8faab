/**
 * Shared setup of the stream-stream join cases in modes/ (not a case itself: only `*.case.ts` files are
 * loaded). Two streams, impressions `imp(ad, it)` and clicks `clk(cad, ct)`, each with a 5-second
 * watermark, joined on the ad id with a click at most 10 seconds after its impression. The cases
 * differ in the join type and in their batches.
 *
 * Whatever this module returns ends up in the exported Spark spec, whose hash keys the cached Spark
 * results: changing a string here reruns Spark for every case that uses it.
 */
import type { ArusQuery, CaseDef, FileInput, InputRow } from "../case.js";

const CONDITION = "ad = cad AND ct >= it AND ct <= it + interval 10 seconds";

/** The `imp` and `clk` inputs with the given batches (batch i of each becomes its file i). */
export function impClkInputs(imp: InputRow[][], clk: InputRow[][]): FileInput[] {
  return [
    {
      name: "imp",
      schema: "ad INT, it TIMESTAMP",
      watermark: { column: "it", delay: "5 seconds" },
      batches: imp,
    },
    {
      name: "clk",
      schema: "cad INT, ct TIMESTAMP",
      watermark: { column: "ct", delay: "5 seconds" },
      batches: clk,
    },
  ];
}

/** `imp.join(clk, <condition>[, how])` in both engines; no `how` is Spark's default (inner). */
export function impClkJoin(how?: "full_outer" | "left_outer" | "right_outer" | "left_semi"): Pick<CaseDef, "pyspark" | "arus"> {
  const howArg = how === undefined ? "" : `, "${how}"`;
  const arus: ArusQuery = ({ inputs, F }) =>
    how === undefined ? inputs.imp.join(inputs.clk, F.expr(CONDITION)) : inputs.imp.join(inputs.clk, F.expr(CONDITION), how);
  return {
    pyspark: `def build(spark, imp, clk):
    return imp.join(clk, F.expr("${CONDITION}")${howArg})`,
    arus,
  };
}
