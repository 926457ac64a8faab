/**
 * Set operations between DataFrames of the same shape, as Spark's optimizer rewrites them:
 * `intersect` = distinct rows of the left that have an equal row on the right (a left semi join
 * on every column with null-safe equality: NULLs equal each other, as in Spark), `subtract` =
 * distinct rows of the left with none (a left anti join). The bag forms keep duplicates:
 * `exceptAll` a row as often as it occurs more on the left than on the right, `intersectAll`
 * as often as it occurs on both; each duplicate is numbered among its equals and joined on
 * that number too. Batch only: Spark refuses these on streams (intersect always, except with a
 * streaming right side; arus refuses except on any stream).
 */
import { AnalysisException } from "../common/errors.js";
import type { Attribute } from "../plan/expressions.js";
import { Column } from "./column.js";
import type { DataFrame } from "./dataframe.js";
import { row_number } from "./functions.js";
import { Window } from "./window.js";

type SetOp = "INTERSECT" | "EXCEPT";

const ROW_NUMBER = "__arus_set_op_row";

function check(left: DataFrame, right: DataFrame, op: SetOp): void {
  if (left.isStreaming || right.isStreaming) {
    throw new AnalysisException(
      "UNSUPPORTED_FEATURE",
      op === "INTERSECT"
        ? "Intersect of streaming DataFrames/Datasets is not supported;"
        : right.isStreaming
          ? "Except on a streaming DataFrame/Dataset on the right is not supported;"
          : "Except on a streaming DataFrame/Dataset is not supported by arus;",
    );
  }
  const [l, r] = [left.output.length, right.output.length];
  if (l !== r) {
    throw new AnalysisException(
      "NUM_COLUMNS_MISMATCH",
      `[NUM_COLUMNS_MISMATCH] ${op} can only be performed on inputs with the same number of columns, but the first input has ${l} columns and the second input has ${r} columns.`,
    );
  }
}

/** `df` with its columns given fresh ids, so that a DataFrame can be joined with itself. */
function renewed(df: DataFrame): DataFrame {
  return df.select(...df.output.map((a) => new Column(a).alias(a.name)));
}

/** Null-safe equality of every column, plus `extra` pairs. */
function allEqual(l: readonly Attribute[], r: readonly Attribute[]): Column {
  let cond = new Column(l[0]!).eqNullSafe(new Column(r[0]!));
  for (let i = 1; i < l.length; i++) cond = cond.and(new Column(l[i]!).eqNullSafe(new Column(r[i]!)));
  return cond;
}

/** Distinct rows of `left` with (semi) or without (anti) an equal row in `right`. */
export function distinctSetOp(left: DataFrame, right: DataFrame, op: SetOp): DataFrame {
  check(left, right, op);
  const r = renewed(right);
  return left.join(r, allEqual(left.output, r.output), op === "INTERSECT" ? "left_semi" : "left_anti").distinct();
}

/** `df` with each row numbered among the rows equal to it (1, 2, ...). */
function numbered(df: DataFrame): DataFrame {
  const cols = df.output.map((a) => new Column(a));
  return df.withColumn(ROW_NUMBER, row_number().over(Window.partitionBy(...cols).orderBy(...cols)));
}

/** `exceptAll` / `intersectAll`: rows kept with their multiplicity. */
export function bagSetOp(left: DataFrame, right: DataFrame, op: SetOp): DataFrame {
  check(left, right, op);
  const l = numbered(left);
  const r = numbered(renewed(right));
  const cond = allEqual(l.output, r.output); // the row numbers are the last column of both
  const kept = l.join(r, cond, op === "INTERSECT" ? "left_semi" : "left_anti");
  return kept.select(...left.output.map((a) => new Column(a)));
}
