/** Spark's ANSI arithmetic errors, shared by the double, BIGINT and DECIMAL kernels. */
import { ArusError } from "../common/errors.js";

export function divideByZero(): ArusError {
  return new ArusError(
    "DIVIDE_BY_ZERO",
    `[DIVIDE_BY_ZERO] Division by zero. Use \`try_divide\` to tolerate divisor being 0 and return NULL instead. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`,
  );
}

/** `%`, `mod` and `pmod` by zero (Spark raises it for every numeric type, doubles too). */
export function remainderByZero(): ArusError {
  return new ArusError(
    "REMAINDER_BY_ZERO",
    `[REMAINDER_BY_ZERO] Remainder by zero. Use \`try_mod\` to tolerate divisor being 0 and return NULL instead. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`,
  );
}

/** The error of an operation by zero: remainders and division differ in Spark. */
export function byZero(op: string): ArusError {
  return op === "%" || op === "pmod" ? remainderByZero() : divideByZero();
}

/** An overflow with no try_ function to suggest (abs, unary minus). */
export function plainOverflow(): ArusError {
  return new ArusError(
    "ARITHMETIC_OVERFLOW",
    `[ARITHMETIC_OVERFLOW] overflow. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`,
  );
}
