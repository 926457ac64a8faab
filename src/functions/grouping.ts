/**
 * grouping() and grouping_id() (Spark's Grouping / GroupingID). They only mean something in an
 * aggregation with GROUPING SETS, ROLLUP or CUBE: the analyzer (analyzer/grouping-sets.ts)
 * rewrites them to read the hidden `spark_grouping_id` column the Expand adds — bit
 * (n - 1 - i) set when grouping column i is rolled up in the row's set — as the two internal
 * functions below. Left anywhere else they are Spark's UNSUPPORTED_GROUPING_EXPRESSION.
 */
import { makeVector } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import { ByteType, LongType } from "../types/datatypes.js";
import { checkArity, register, type ScalarFunction } from "./registry.js";

function outsideGroupingSets(name: string): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args) {
      if (name === "grouping") checkArity("grouping", args, 1);
      throw new AnalysisException(
        "UNSUPPORTED_GROUPING_EXPRESSION",
        "[UNSUPPORTED_GROUPING_EXPRESSION] grouping()/grouping_id() can only be used with GroupingSets/Cube/Rollup.",
      );
    },
    kernel() {
      throw new Error(`${name} reached execution`);
    },
  };
}

/** `__grouping_bit(gid, shift, column)`: grouping(column) = (gid >> shift) & 1; `column` only names it. */
const groupingBit: ScalarFunction = {
  kind: "scalar",
  name: "__grouping_bit",
  // Spark's Grouping is a TINYINT.
  resolve: (args) => ({ args, type: ByteType }),
  kernel(args, n) {
    const gid = args[0]!.values as Float64Array;
    const shift = (args[1]!.values as Int32Array)[0]!;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = Math.floor(gid[i]! / 2 ** shift) % 2;
    return makeVector(ByteType, out, null, n);
  },
};

/** `__grouping_id(gid, ...columns)`: grouping_id() is the hidden column itself; the columns only name it. */
const groupingId: ScalarFunction = {
  kind: "scalar",
  name: "__grouping_id",
  resolve: (args) => ({ args, type: LongType }),
  kernel: (args) => args[0]!,
};

register(outsideGroupingSets("grouping"), outsideGroupingSets("grouping_id"), groupingBit, groupingId);
