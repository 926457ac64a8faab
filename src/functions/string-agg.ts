/**
 * listagg / string_agg(expr[, delimiter]): a group's non-NULL values (cast to STRING) joined in
 * arrival order with the delimiter (none by default); NULL for a group without values. The
 * buffer is the list of values, so partial buffers merge by appending. Not supported yet:
 * DISTINCT (Spark's order is a hash order) and WITHIN GROUP (ORDER BY ...).
 */
import { type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import { ArrayOf, StringType } from "../types/datatypes.js";
import { CollectListAcc } from "./collect-accumulators.js";
import { type AggregateFunction, castTo, checkArity, register, typeMismatch } from "./registry.js";

class JoinAcc extends CollectListAcc {
  constructor(private readonly delimiter: string) {
    super(ArrayOf(StringType));
  }
  override buffers(n: number): Vector[] {
    return [vectorFromValues(ArrayOf(StringType), this.lists.slice(0, n))];
  }
  override evaluate(n: number): Vector {
    return vectorFromValues(
      StringType,
      this.lists.slice(0, n).map((l) => (l.length === 0 ? null : l.join(this.delimiter))),
    );
  }
}

function stringAgg(name: string): AggregateFunction {
  return {
    kind: "aggregate",
    name,
    resolve(args, types, call, distinct) {
      checkArity(name, args, 1, 2);
      if (distinct) {
        throw new AnalysisException("UNSUPPORTED_FEATURE", `[UNSUPPORTED_FEATURE] ${name}(DISTINCT ...) is not supported by arus yet.`);
      }
      const t = types[0]!;
      if (t.kind === "array" || t.kind === "map" || t.kind === "struct") throw typeMismatch(call, 0, '"STRING"', args[0]!, t);
      // no delimiter (or NULL) joins with none; the column name still shows NULL (plan/sql-text.ts)
      const value = castTo(args[0]!, t, StringType);
      const noDelimiter = !args[1] || (args[1].kind === "literal" && args[1].value === null);
      return { args: noDelimiter ? [value] : [value, castTo(args[1]!, types[1]!, StringType)], type: StringType };
    },
    bufferTypes: () => [ArrayOf(StringType)],
    create: (_types, _r, _d, literals) => new JoinAcc(typeof literals[1] === "string" ? literals[1] : ""),
  };
}

register(stringAgg("listagg"), stringAgg("string_agg"));
