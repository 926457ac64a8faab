/**
 * to_number / try_to_number (text in a number format → DECIMAL(precision, scale) of the format)
 * and to_char / to_varchar (a number → text in a format; a date or timestamp → date_format).
 * The formats themselves: number-format.ts. The format must be a string literal.
 */
import { AnalysisException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { type DataType, isNumeric, StringType } from "../types/datatypes.js";
import { DecimalOf, formatUnscaled, toLane } from "../types/decimal.js";
import { mapRows } from "./kernel-util.js";
import { mismatchError, NumberFormat } from "./number-format.js";
import { castTo, checkArity, lookupFunction, register, registerAlias, type ScalarFunction, typeMismatch } from "./registry.js";

/** The compiled (and checked) format of argument 1, a string literal. */
function formatArg(name: string, args: readonly Expr[]): NumberFormat {
  const f = args[1]!;
  if (f.kind !== "literal" || typeof f.value !== "string") {
    throw new AnalysisException(
      "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
      `[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] Cannot resolve "${name}" due to data type mismatch: the input \`format\` should be a foldable "STRING" expression.`,
    );
  }
  const format = new NumberFormat(f.value);
  format.check();
  return format;
}

function toNumber(name: string, errorOnMismatch: boolean): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types) {
      checkArity(name, args, 2);
      const format = formatArg(name, args);
      return { args: [castTo(args[0]!, types[0]!, StringType), args[1]!], type: DecimalOf(format.precision, format.scale) };
    },
    kernel(args, n) {
      const format = new NumberFormat(String(args[1]!.values[0] ?? ""));
      const type = DecimalOf(format.precision, format.scale);
      return mapRows(type, args, n, (text) => {
        const unscaled = format.parse(text as string);
        if (unscaled === null && errorOnMismatch) throw mismatchError(text as string, format.text);
        return unscaled === null ? null : toLane(unscaled, type);
      });
    },
  };
}

/** A number's digits without exponent, as Spark casts it to a decimal first (a DOUBLE to 15 places, a FLOAT to 7). */
function plainDigits(v: unknown, t: DataType): string {
  if (t.kind === "decimal") return formatUnscaled(v as number | bigint, t.scale);
  if (t.kind === "double" || t.kind === "float") {
    const d = v as number;
    return Math.abs(d) < 1e21 ? d.toFixed(t.kind === "double" ? 15 : 7) : BigInt(d).toString();
  }
  return String(v);
}

const toChar: ScalarFunction = {
  kind: "scalar",
  name: "to_char",
  resolve(args, types, call) {
    checkArity("to_char", args, 2);
    const t = types[0]!;
    const dateFormat = lookupFunction("date_format");
    if ((t.kind === "date" || t.kind === "timestamp") && dateFormat?.kind === "scalar") return dateFormat.resolve(args, types, call);
    if (!isNumeric(t)) throw typeMismatch(call, 0, '"DECIMAL"', args[0]!, t);
    formatArg("to_char", args);
    return { args, type: StringType };
  },
  kernel(args, n, ctx) {
    const t = args[0]!.type;
    const dateFormat = lookupFunction("date_format");
    if ((t.kind === "date" || t.kind === "timestamp") && dateFormat?.kind === "scalar") return dateFormat.kernel(args, n, ctx);
    const format = new NumberFormat(String(args[1]!.values[0] ?? ""));
    return mapRows(StringType, args, n, (v) => format.format(plainDigits(v, t)));
  },
};

register(toNumber("to_number", true), toNumber("try_to_number", false), toChar);
registerAlias("to_varchar", "to_char");
