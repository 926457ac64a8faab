/**
 * The argument checks PySpark makes in Python before calling Spark (its PySparkTypeError
 * NOT_EXPECTED_TYPE), for arus methods that take the same arguments from JS: a value's type is
 * named as Python would name it (`str`, `int`, `float`, `list`).
 */
import { IllegalArgumentException } from "../common/errors.js";
import { Column } from "./column.js";

/** Python's `type(v).__name__` for what a JS caller may pass. */
export function pythonTypeName(v: unknown): string {
  if (v === null || v === undefined) return "NoneType";
  if (typeof v === "string") return "str";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return "list";
  return v instanceof Column ? "Column" : typeof v;
}

export const notExpected = (arg: string, expected: string, v: unknown) =>
  new IllegalArgumentException(
    `[NOT_EXPECTED_TYPE] Argument \`${arg}\` should be ${expected}, got ${pythonTypeName(v)}.`,
    "NOT_EXPECTED_TYPE",
  );

/** Each named argument must be a string (a column name). */
export function checkNames(...args: [name: string, value: unknown][]): void {
  for (const [name, v] of args) if (typeof v !== "string") throw notExpected(name, "str", v);
}
