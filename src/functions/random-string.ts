/**
 * randstr(length[, seed]) (Spark 4.0): a string of `length` characters drawn uniformly from
 * 0-9, a-z, A-Z. With a seed, Spark's characters: its XORShiftRandom (random.ts) per execution,
 * each character `|nextInt() % 62|`, rows continuing one sequence as Spark's partition 0 does.
 * The length must be a constant (cast to INT; NULL gives ""), the seed an INT or BIGINT literal.
 */
import { getValue, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import { anyExpr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { IntegerType, StringType } from "../types/datatypes.js";
import { checkSeed, generatorFor, seedOf } from "./random.js";
import { castTo, register, type ScalarFunction } from "./registry.js";

const CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

const randstr: ScalarFunction = {
  kind: "scalar",
  name: "randstr",
  resolve(args, types, call) {
    const checked = checkSeed("randstr", args, types, call, 1);
    const length = args[0]!;
    if (anyExpr(length, (e) => e.kind === "attribute" || e.kind === "column")) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
        `[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] Cannot resolve "${exprToSql(call)}" due to data type mismatch: the input \`length\` should be a foldable integer expression; however, got "${exprToSql(length)}".`,
      );
    }
    if (length.kind === "literal" && typeof length.value === "number" && length.value < 0) {
      throw new AnalysisException(
        "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
        `[DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: The \`length\` must be between [0, 2147483647] (current value = ${length.value}).`,
      );
    }
    checked[0] = castTo(length, types[0]!, IntegerType);
    return { args: checked, type: StringType };
  },
  kernel(args, n, ctx, site) {
    const length = Math.max(0, (getValue(args[0]!, 0) as number | null) ?? 0);
    const seed = seedOf(args, 1, ctx);
    const g = generatorFor(ctx, site ?? `randstr:${seed}`, seed);
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      let s = "";
      for (let k = 0; k < length; k++) s += CHARS[Math.abs(g.next(32) % 62)];
      out[i] = s;
    }
    return vectorFromValues(StringType, out);
  },
  foldable: false,
};

register(randstr);
