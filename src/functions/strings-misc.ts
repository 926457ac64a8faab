/**
 * Small string functions: elt, find_in_set, mask and quote.
 * mask classifies code points as Java's Character does (isUpperCase, isLowerCase, isDigit), so
 * accented capitals are masked as capitals.
 */
import { getValue, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException, ArusError } from "../common/errors.js";
import { literal } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { IntegerType, NullType, StringType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, exactArg, numberArg, register, type ScalarFunction, withDefaults } from "./registry.js";

/** elt(n, s1, s2, ...): the n-th string (1-based); out of range is INVALID_ARRAY_INDEX under ANSI, else NULL. */
const elt: ScalarFunction = {
  kind: "scalar",
  name: "elt",
  resolve(args, types, call) {
    checkArity("elt", args, 2, Infinity);
    return {
      args: [numberArg(call, args, types, 0, IntegerType), ...args.slice(1).map((a, i) => castTo(a, types[i + 1]!, StringType))],
      type: StringType,
    };
  },
  kernel(args, n, ctx) {
    const out = new Array<string | null>(n);
    const count = args.length - 1;
    for (let i = 0; i < n; i++) {
      const k = getValue(args[0]!, i) as number | null;
      if (k === null) {
        out[i] = null;
        continue;
      }
      if (k < 1 || k > count) {
        if (ctx.ansi)
          throw new ArusError(
            "INVALID_ARRAY_INDEX",
            `[INVALID_ARRAY_INDEX] The index ${k} is out of bounds. The array has ${count} elements. Use the SQL function \`get()\` to tolerate accessing element at invalid index and return NULL instead.`,
          );
        out[i] = null;
        continue;
      }
      out[i] = getValue(args[k]!, i) as string | null;
    }
    return stringsVector(out);
  },
};

const stringsVector = (values: (string | null)[]) => vectorFromValues(StringType, values);

/** find_in_set(s, list): the 1-based position of s among list's comma-separated items; 0 if absent or s holds a comma. */
const findInSet: ScalarFunction = {
  kind: "scalar",
  name: "find_in_set",
  resolve(args, types) {
    checkArity("find_in_set", args, 2);
    return { args: [castTo(args[0]!, types[0]!, StringType), castTo(args[1]!, types[1]!, StringType)], type: IntegerType };
  },
  kernel: (args, n) =>
    mapRows(IntegerType, args, n, (s, list) => {
      if ((s as string).includes(",")) return 0;
      return (list as string).split(",").indexOf(s as string) + 1;
    }),
};

const MASK_ARGS = ["upperChar", "lowerChar", "digitChar", "otherChar"];
export const MASK_DEFAULTS = ["X", "x", "n", null] as const;

/** mask(s[, upper[, lower[, digit[, other]]]]): each class of character replaced; a NULL replacement keeps it. */
const mask: ScalarFunction = {
  kind: "scalar",
  name: "mask",
  resolve(args, types, call) {
    checkArity("mask", args, 1, 5);
    args.slice(1).forEach((a, i) => {
      if (a.kind === "literal" && a.value !== null && Array.from(String(a.value)).length !== 1) {
        throw new AnalysisException(
          "DATATYPE_MISMATCH.INPUT_SIZE_NOT_ONE",
          `[DATATYPE_MISMATCH.INPUT_SIZE_NOT_ONE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: Length of ${MASK_ARGS[i]} should be 1.`,
        );
      }
    });
    // no implicit casts (Spark's Mask is ExpectsInputTypes only); the call shown with its defaults
    const shown = withDefaults(call, [args[0]!, ...MASK_DEFAULTS.map((d) => literal(d, d === null ? NullType : StringType))]);
    return { args: args.map((_, i) => exactArg(shown, args, types, i, StringType)), type: StringType };
  },
  kernel(args, n) {
    const out = new Array<string | null>(n);
    for (let i = 0; i < n; i++) {
      const s = getValue(args[0]!, i) as string | null;
      if (s === null) {
        out[i] = null;
        continue;
      }
      const repl = MASK_DEFAULTS.map((d, k) => (args[k + 1] ? (getValue(args[k + 1]!, i) as string | null) : d));
      let r = "";
      for (const ch of s) {
        const cls = /\p{Lu}/u.test(ch) ? 0 : /\p{Ll}/u.test(ch) ? 1 : /\p{Nd}/u.test(ch) ? 2 : 3;
        r += repl[cls] ?? ch;
      }
      out[i] = r;
    }
    return stringsVector(out);
  },
};

/** quote(s): s in single quotes, its single quotes escaped with a backslash. */
const quote: ScalarFunction = {
  kind: "scalar",
  name: "quote",
  resolve(args, types) {
    checkArity("quote", args, 1);
    return { args: [castTo(args[0]!, types[0]!, StringType)], type: StringType };
  },
  kernel: (args, n) => mapRows(StringType, args, n, (s) => `'${(s as string).replaceAll("'", "\\'")}'`),
};

register(elt, findInSet, mask, quote);
