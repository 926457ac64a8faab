/**
 * __decimal_of_double_text(d): the text of Spark's `Decimal(d)` — Java's BigDecimal of
 * Double.toString(d), a negative scale set to 0 — which is not the column's scale. Spark's
 * percentile_approx over a DECIMAL column gives such values, and df.summary prints them so
 * (`1.5` in a DECIMAL(5,2) column, `10000000` for 1.0E7); api/summary.ts uses it. Internal.
 */
import { javaDoubleToString } from "../common/show.js";
import { DoubleType, StringType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, register, type ScalarFunction } from "./registry.js";

/** Java's BigDecimal.toString of `new BigDecimal(Double.toString(d))`, scale at least 0. */
export function decimalOfDoubleText(d: number): string {
  if (!Number.isFinite(d)) return javaDoubleToString(d);
  const [mantissa, exp = "0"] = javaDoubleToString(d).split("E") as [string, string?];
  const negative = mantissa.startsWith("-");
  const [int, frac = ""] = mantissa.replace("-", "").split(".") as [string, string?];
  let digits = `${int}${frac}`.replace(/^0+(?=\d)/, "");
  let scale = frac.length - Number(exp);
  if (scale < 0) {
    digits += "0".repeat(-scale);
    scale = 0;
  }
  const sign = negative && /[1-9]/.test(digits) ? "-" : "";
  const adjusted = digits.length - 1 - scale;
  if (adjusted < -6) {
    // BigDecimal's scientific form, used for small numbers only (the scale is never negative here)
    return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ""}E${adjusted}`;
  }
  if (scale === 0) return `${sign}${digits}`;
  const padded = digits.padStart(scale + 1, "0");
  return `${sign}${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
}

const decimalOfDouble: ScalarFunction = {
  kind: "scalar",
  name: "__decimal_of_double_text",
  internal: true,
  resolve(args, types) {
    checkArity("__decimal_of_double_text", args, 1);
    return { args: [castTo(args[0]!, types[0]!, DoubleType)], type: StringType };
  },
  kernel: (args, n) => mapRows(StringType, args, n, (x) => decimalOfDoubleText(x as number)),
};

register(decimalOfDouble);
