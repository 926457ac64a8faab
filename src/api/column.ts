/**
 * Column: an immutable wrapper around an expression node, with Spark's Column methods
 * (Scala names: `plus`, `equalTo`, `isin`, ...). Plain values passed to these methods are
 * literals; in `functions` plain strings are column names, as in PySpark.
 */
import { IllegalArgumentException } from "../common/errors.js";
import {
  alias,
  call,
  callByName,
  caseWhen,
  cast,
  columnFromName,
  type Expr,
  literal,
  multiAlias,
  sortOrder,
  splitName,
  tryCast,
  windowExpr,
} from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { parseDataType } from "../sql/index.js";
import { type DataType, StringType } from "../types/datatypes.js";
import { inferLiteralType, toInternal } from "./values.js";
import type { WindowSpec } from "./window.js";

export type ColumnOrValue = Column | string | number | boolean | bigint | Date | null;
export type ColumnOrName = Column | string;

export class Column {
  /** @internal */
  constructor(readonly expr: Expr) {}

  toString(): string {
    return `Column<'${exprToSql(this.expr)}'>`;
  }

  /**
   * JavaScript operators (`%`, `-`, `+`, `<`, `==` with a primitive) would turn a Column into a
   * primitive: NaN or "[object Object]" at run time, never an expression. They fail loudly
   * instead, naming the Column method to use. `${col}` and String(col) give the `Column<'...'>`
   * text, as PySpark's str(col).
   */
  [Symbol.toPrimitive](hint: "string" | "number" | "default"): string {
    if (hint === "string") return this.toString();
    throw new TypeError(columnOperatorMessage(exprToSql(this.expr)));
  }
  valueOf(): never {
    throw new TypeError(columnOperatorMessage(exprToSql(this.expr)));
  }

  private bin(name: string, other: ColumnOrValue): Column {
    return new Column(call(name, [this.expr, lit(other).expr]));
  }
  plus(o: ColumnOrValue): Column {
    return this.bin("+", o);
  }
  minus(o: ColumnOrValue): Column {
    return this.bin("-", o);
  }
  multiply(o: ColumnOrValue): Column {
    return this.bin("*", o);
  }
  divide(o: ColumnOrValue): Column {
    return this.bin("/", o);
  }
  mod(o: ColumnOrValue): Column {
    return this.bin("%", o);
  }
  /** PySpark's bitwiseAND / bitwiseOR / bitwiseXOR: `(a & b)`, `(a | b)`, `(a ^ b)`. */
  bitwiseAND(o: ColumnOrValue): Column {
    return this.bin("&", o);
  }
  bitwiseOR(o: ColumnOrValue): Column {
    return this.bin("|", o);
  }
  bitwiseXOR(o: ColumnOrValue): Column {
    return this.bin("^", o);
  }
  equalTo(o: ColumnOrValue): Column {
    return this.bin("=", o);
  }
  eqNullSafe(o: ColumnOrValue): Column {
    return this.bin("<=>", o);
  }
  notEqual(o: ColumnOrValue): Column {
    return this.bin("!=", o);
  }
  gt(o: ColumnOrValue): Column {
    return this.bin(">", o);
  }
  geq(o: ColumnOrValue): Column {
    return this.bin(">=", o);
  }
  lt(o: ColumnOrValue): Column {
    return this.bin("<", o);
  }
  leq(o: ColumnOrValue): Column {
    return this.bin("<=", o);
  }
  and(o: ColumnOrValue): Column {
    return this.bin("and", o);
  }
  or(o: ColumnOrValue): Column {
    return this.bin("or", o);
  }
  not(): Column {
    return new Column(call("not", [this.expr]));
  }
  /** PySpark's `-col`, named `negative(col)`. */
  negate(): Column {
    return new Column(callByName("negative", [this.expr]));
  }
  isNull(): Column {
    return new Column(call("isnull", [this.expr]));
  }
  isNotNull(): Column {
    return new Column(call("isnotnull", [this.expr]));
  }
  isin(...values: (ColumnOrValue | ColumnOrValue[])[]): Column {
    const flat = values.flat() as ColumnOrValue[];
    return new Column(call("in", [this.expr, ...flat.map((v) => lit(v).expr)]));
  }
  between(lower: ColumnOrValue, upper: ColumnOrValue): Column {
    return this.geq(lower).and(this.leq(upper));
  }
  like(pattern: string): Column {
    return this.bin("like", pattern);
  }
  rlike(pattern: string): Column {
    return this.bin("rlike", pattern);
  }
  contains(o: ColumnOrValue): Column {
    return this.bin("contains", o);
  }
  /**
   * This struct with field `name` set to `col` (replaced in place, or added last): Spark's
   * UpdateFields. A nested name (`a.b`, backquotes for a dot inside a name) sets the field in the
   * inner struct `a`, which is set in turn (a NULL inner struct stays NULL).
   */
  withField(name: string, col: Column): Column {
    return this.updateFieldPath(splitName(name), (leaf) => call("withfield", [lit(leaf).expr, col.expr]));
  }
  /** This struct without the named fields (a name it does not have is ignored; dropping every field is an error); nested names as withField's. */
  dropFields(...names: string[]): Column {
    let out: Column = this;
    for (const n of names) out = out.updateFieldPath(splitName(n), (leaf) => call("dropfield", [lit(leaf).expr]));
    return out;
  }
  /** Spark's updateFieldsHelper: the last name's operation on the struct its path leads to, each level set in its parent. */
  private updateFieldPath(path: readonly string[], op: (leaf: string) => Expr): Column {
    if (path.length === 1) return this.updateFields(op(path[0]!));
    const inner = this.getField(path[0]!).updateFieldPath(path.slice(1), op);
    return this.updateFields(call("withfield", [lit(path[0]!).expr, inner.expr]));
  }
  private updateFields(...ops: Expr[]): Column {
    const e = this.expr;
    // chained calls make one update_fields, as Spark's optimizer does
    if (e.kind === "call" && e.name === "update_fields") return new Column(call("update_fields", [...e.args, ...ops]));
    return new Column(call("update_fields", [e, ...ops]));
  }
  /** Case-insensitive LIKE: `ilike(s, pattern)`. */
  ilike(pattern: string): Column {
    return new Column(call("ilike", [this.expr, lit(pattern).expr]));
  }
  /** PySpark's spelling of `startsWith`. */
  startswith(o: ColumnOrValue): Column {
    return this.startsWith(o);
  }
  /** PySpark's spelling of `endsWith`. */
  endswith(o: ColumnOrValue): Column {
    return this.endsWith(o);
  }
  /** `isnan(c)`. */
  isNaN(): Column {
    return new Column(call("isnan", [this.expr]));
  }
  startsWith(o: ColumnOrValue): Column {
    return this.bin("startswith", o);
  }
  endsWith(o: ColumnOrValue): Column {
    return this.bin("endswith", o);
  }
  substr(start: ColumnOrValue, length: ColumnOrValue): Column {
    return new Column(call("substr", [this.expr, lit(start).expr, lit(length).expr]));
  }
  /** `cast("int")`, `cast("STRUCT<a: INT>")` or `cast(T.IntegerType)`. */
  cast(to: string | DataType): Column {
    return new Column(cast(this.expr, typeof to === "string" ? parseDataType(to) : to));
  }
  /** Like cast, but invalid input gives NULL even in ANSI mode. */
  try_cast(to: string | DataType): Column {
    return new Column(tryCast(this.expr, typeof to === "string" ? parseDataType(to) : to));
  }
  astype(to: string | DataType): Column {
    return this.cast(to);
  }
  /**
   * A name for this column; several names for a generator's columns, as PySpark's
   * `alias(*alias)`: `F.posexplode("a").alias("p", "v")`.
   */
  alias(name: string, metadata?: Record<string, unknown>): Column;
  alias(...names: string[]): Column;
  alias(name: string, ...rest: (string | Record<string, unknown> | undefined)[]): Column {
    const child = this.expr.kind === "alias" || this.expr.kind === "multiAlias" ? this.expr.child : this.expr;
    const more = rest.filter((r): r is string => typeof r === "string");
    if (more.length > 0) return new Column(multiAlias(child, [name, ...more]));
    return new Column(alias(child, name, rest[0] as Record<string, unknown> | undefined));
  }
  as(name: string): Column;
  as(...names: string[]): Column;
  as(...names: string[]): Column {
    return this.alias(...(names as [string, ...string[]]));
  }
  name(name: string): Column {
    return this.alias(name);
  }
  /** This aggregate or window function over a window: `F.row_number().over(Window.partitionBy("k").orderBy("ts"))`. */
  over(window?: WindowSpec): Column {
    return new Column(windowExpr(this.expr, window?.partitionSpec ?? [], window?.orderSpec ?? [], window?.frame ?? null));
  }
  asc(): Column {
    return new Column(sortOrder(this.expr, true));
  }
  desc(): Column {
    return new Column(sortOrder(this.expr, false));
  }
  asc_nulls_first(): Column {
    return new Column(sortOrder(this.expr, true, true));
  }
  asc_nulls_last(): Column {
    return new Column(sortOrder(this.expr, true, false));
  }
  desc_nulls_first(): Column {
    return new Column(sortOrder(this.expr, false, true));
  }
  desc_nulls_last(): Column {
    return new Column(sortOrder(this.expr, false, false));
  }
  getField(name: string): Column {
    return new Column(call("getfield", [this.expr, literal(name, StringType)]));
  }
  getItem(key: ColumnOrValue): Column {
    return new Column(call("getitem", [this.expr, lit(key).expr]));
  }
  /** `when(...).when(...)` chaining on a CASE expression built by `F.when`. */
  when(condition: Column, value: ColumnOrValue): Column {
    if (this.expr.kind !== "caseWhen" || this.expr.otherwise) {
      throw new IllegalArgumentException("when() can only be applied on a Column previously generated by when() function");
    }
    return new Column(caseWhen([...this.expr.branches, [condition.expr, lit(value).expr]], null));
  }
  otherwise(value: ColumnOrValue): Column {
    if (this.expr.kind !== "caseWhen" || this.expr.otherwise) {
      throw new IllegalArgumentException(
        "otherwise() can only be applied on a Column previously generated by when() function, and cannot be applied once otherwise() is applied",
      );
    }
    return new Column(caseWhen(this.expr.branches, lit(value).expr));
  }
}

/** The error for a Column used with a JavaScript operator: the method table and the SQL form. */
export function columnOperatorMessage(sql: string): string {
  return (
    `Column<'${sql}'> was used with a JavaScript operator (+ - * / % < <= > >= == !=), which cannot build a Spark expression. ` +
    `Use the Column methods: .plus(x) .minus(x) .multiply(x) .divide(x) .mod(x) .equalTo(x) .notEqual(x) .gt(x) .geq(x) .lt(x) .leq(x) .and(c) .or(c) .not() .negate(), ` +
    `for example .mod(3) instead of % 3, or write SQL: F.expr("${sql} % 3") or F.sql\`${sql} % \${3}\`.`
  );
}

/** A literal column (a Column passes through unchanged). */
export function lit(v: ColumnOrValue | unknown): Column {
  if (v instanceof Column) return v;
  const type = inferLiteralType(v);
  return new Column(literal(toInternal(v, type, "UTC", "lit"), type));
}

/** A column by name, or the Column itself. */
export function col(c: ColumnOrName): Column {
  if (c instanceof Column) return c;
  if (typeof c !== "string") throw new IllegalArgumentException(`Expected a column name or Column, got ${typeof c}`);
  if (c === "*") return new Column({ kind: "star", qualifier: null });
  if (c.endsWith(".*")) return new Column({ kind: "star", qualifier: c.slice(0, -2) });
  return new Column(columnFromName(c));
}

export const toExpr = (c: ColumnOrName): Expr => col(c).expr;
