/**
 * stack(n, v1, ..., vk): a generator giving n rows per input row, the values laid out row by
 * row over ceil(k / n) columns col0, col1, ... (missing trailing values are NULL) — Spark's
 * Stack, the usual unpivot. `n` is an INT literal above 0; the values of one column must share
 * a type (a NULL literal takes the column's; Spark casts nothing else).
 */
import { getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException, arityError } from "../common/errors.js";
import { cast, type Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { type DataType, field, NullType, sqlTypeName, typesEqual } from "../types/datatypes.js";
import { registerGenerator } from "./generators.js";
import { typeMismatch } from "./registry.js";

function mismatch(call: Expr, message: string, errorClass = "DATATYPE_MISMATCH.STACK_COLUMN_DIFF_TYPES"): AnalysisException {
  return new AnalysisException(errorClass, `[${errorClass}] Cannot resolve "${exprToSql(call)}" due to data type mismatch: ${message}`);
}

/** The row count: the first argument, an INT literal in (0, 2^31 − 1]. */
function rowCount(call: Expr, args: readonly Expr[], types: readonly DataType[]): number {
  const first = args[0]!;
  if (types[0]!.kind !== "int") throw typeMismatch(call, 0, '"INT"', first, types[0]!);
  if (first.kind !== "literal") {
    throw mismatch(
      call,
      `the input \`n\` should be a foldable "INT" expression; however, got "${exprToSql(first)}".`,
      "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
    );
  }
  const n = first.value as number | null;
  if (n === null || n <= 0) {
    throw mismatch(
      call,
      `The \`n\` must be between (0, 2147483647] (current value = ${n ?? "NULL"}).`,
      "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
    );
  }
  return n;
}

registerGenerator({
  name: "stack",
  resolve(call, args, types) {
    if (args.length < 2) throw arityError("stack", "> 1", args.length);
    const n = rowCount(call, args, types);
    const columns = Math.ceil((args.length - 1) / n);
    const colTypes: DataType[] = [];
    for (let j = 0; j < columns; j++) {
      let first = -1;
      for (let k = 1 + j; k < args.length; k += columns) {
        if (types[k]!.kind === "null") continue;
        if (first < 0) first = k;
        else if (!typesEqual(types[first]!, types[k]!)) {
          throw mismatch(
            call,
            `The data type of the column (${j}) do not have the same type: "${sqlTypeName(types[first]!)}" (${first}) <> "${sqlTypeName(types[k]!)}" (${k}).`,
          );
        }
      }
      colTypes.push(first < 0 ? NullType : types[first]!);
    }
    const cast_ = args.map((a, k) => (k > 0 && types[k]!.kind === "null" ? cast(a, colTypes[(k - 1) % columns]!, true) : a));
    return { args: cast_, fields: colTypes.map((t, j) => field(`col${j}`, t)) };
  },
  generate(args, n, _outer, fields) {
    const rowsPer = (args[0]!.values as ArrayLike<number>)[0]!;
    const values = args.slice(1);
    const columns = fields.length;
    const total = n * rowsPer;
    const rows = new Int32Array(total);
    for (let i = 0; i < n; i++) rows.fill(i, i * rowsPer, (i + 1) * rowsPer);
    const out = fields.map((f, j) => {
      const cells = new Array<unknown>(total).fill(null);
      for (let r = 0; r < rowsPer; r++) {
        const v: Vector | undefined = values[r * columns + j];
        if (v) for (let i = 0; i < n; i++) cells[i * rowsPer + r] = getValue(v, i);
      }
      return vectorFromValues(f.type, cells);
    });
    return { rows, columns: out };
  },
});
