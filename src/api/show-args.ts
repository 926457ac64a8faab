/**
 * The argument forms of `show` / `showString`, as PySpark and Scala accept them:
 * `show()`, `show(n)`, `show(n, truncate)`, `show(n, truncate, vertical)` (truncate: true = 20
 * characters, false = none, a number = that many), Scala's `show(truncate)` (`show(false)`)
 * and the keyword form `show({ n, truncate, vertical })`.
 */
import { IllegalArgumentException } from "../common/errors.js";

export interface ShowOptions {
  /** Rows to show (default 20). */
  n?: number;
  /** true (default): cut cells to 20 characters; false: in full; a number: that many characters. */
  truncate?: boolean | number;
  /** One block per row instead of a table (default false). */
  vertical?: boolean;
}

export interface ShowArgs {
  n: number;
  /** 0 = no truncation. */
  truncate: number;
  vertical: boolean;
}

export function showArgs(a?: number | boolean | ShowOptions, b?: boolean | number, c?: boolean): ShowArgs {
  if (typeof a === "boolean") {
    if (b !== undefined) throw new IllegalArgumentException("show(truncate) takes one argument; with a row count write show(n, truncate).");
    return showArgs(20, a);
  }
  if (typeof a === "object" && a !== null) {
    if (b !== undefined || c !== undefined) throw new IllegalArgumentException("show({ n, truncate, vertical }) takes no other argument.");
    return showArgs(a.n, a.truncate, a.vertical);
  }
  const n = a ?? 20;
  if (typeof n !== "number" || !Number.isInteger(n)) {
    throw new IllegalArgumentException(`[NOT_INT] Argument \`n\` of show() should be an int, got ${typeof n} ${String(n)}.`);
  }
  const t = b ?? true;
  let truncate: number;
  if (t === true) truncate = 20;
  else if (t === false) truncate = 0;
  else if (typeof t === "number" && Number.isInteger(t)) truncate = Math.max(0, t);
  else
    throw new IllegalArgumentException(
      `[NOT_BOOL] Argument \`truncate\` of show() should be a bool or an int, got ${typeof t} ${String(t)}.`,
    );
  const vertical = c ?? false;
  if (typeof vertical !== "boolean") {
    throw new IllegalArgumentException(
      `[NOT_BOOL] Argument \`vertical\` of show() should be a bool, got ${typeof vertical} ${String(vertical)}.`,
    );
  }
  return { n, truncate, vertical };
}
