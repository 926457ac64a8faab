/**
 * `df.na` (Spark's DataFrameNaFunctions) and its shorthands `df.fillna` / `df.dropna` /
 * `df.replace`: missing values filled, rows with missing values dropped, values replaced. All are
 * projections or filters over the DataFrame, so they work on streams as well. As in Spark, NaN
 * counts as missing in FLOAT and DOUBLE columns, a fill value applies to the columns of its kind
 * only (a number to numeric columns, a string to STRING, a boolean to BOOLEAN) and is cast to
 * each column's type (`fill(1.7)` puts 1 in an INT column).
 */
import { IllegalArgumentException } from "../common/errors.js";
import type { Attribute } from "../plan/expressions.js";
import { type DataType, isNumeric } from "../types/datatypes.js";
import { Column, col, lit } from "./column.js";
import type { DataFrame } from "./dataframe.js";
import { isnan, when } from "./functions.js";

export type FillValue = number | string | boolean;
type Subset = string | readonly string[];

const isFloating = (t: DataType) => t.kind === "double" || t.kind === "float";

/** Does a fill or replace value of this JS type apply to a column of type `t`? */
function applies(v: FillValue | null, t: DataType): boolean {
  if (typeof v === "number") return isNumeric(t);
  if (typeof v === "string") return t.kind === "string";
  if (typeof v === "boolean") return t.kind === "boolean";
  return true;
}

/** A column reference that resolves to exactly this attribute (names may repeat after joins). */
const ref = (a: Attribute) => new Column(a);

/** Missing in Spark's sense: NULL, or NaN in a FLOAT / DOUBLE column. */
function missing(a: Attribute): Column {
  return isFloating(a.type)
    ? ref(a)
        .isNull()
        .or(isnan(ref(a)))
    : ref(a).isNull();
}

export class DataFrameNaFunctions {
  constructor(private readonly df: DataFrame) {}

  /** The columns `subset` names (all when undefined), in the DataFrame's order. */
  private columns(subset: Subset | undefined): readonly Attribute[] {
    const out = this.df.output;
    if (subset === undefined) return out;
    const names = (typeof subset === "string" ? [subset] : subset).map((n) => n.toLowerCase());
    for (const n of names) if (!out.some((a) => a.name.toLowerCase() === n)) this.df.select(col(n)); // Spark's UNRESOLVED_COLUMN
    return out.filter((a) => names.includes(a.name.toLowerCase()));
  }

  /**
   * Every column but those of `changed`, which get their new expression under their own name.
   * Matched by exprId: a DataFrame's output is derived anew on each read (after an aggregate or
   * a select, as new objects), so the attributes `changed` was keyed by are not the same objects.
   */
  private project(changed: Map<Attribute, Column>): DataFrame {
    if (changed.size === 0) return this.df;
    const byId = new Map([...changed].map(([a, c]) => [a.exprId, c]));
    return this.df.select(...this.df.output.map((a) => byId.get(a.exprId)?.alias(a.name) ?? ref(a)));
  }

  /**
   * Missing values replaced by `value` in the columns of its kind (of `subset`); or, with an
   * object, a value per column name (`{ age: 0, city: "?" }`).
   */
  fill(value: FillValue | Readonly<Record<string, FillValue>>, subset?: Subset): DataFrame {
    const changed = new Map<Attribute, Column>();
    const put = (a: Attribute, v: FillValue) => changed.set(a, when(missing(a), lit(v).cast(a.type)).otherwise(ref(a)));
    if (typeof value === "object") {
      for (const [name, v] of Object.entries(value)) for (const a of this.columns(name)) put(a, v);
    } else {
      if (!["number", "string", "boolean"].includes(typeof value))
        throw new IllegalArgumentException(
          `[NOT_BOOL_OR_DICT_OR_FLOAT_OR_INT_OR_STR] Argument \`value\` should be a boolean, number, string or object, got ${typeof value}.`,
        );
      for (const a of this.columns(subset)) if (applies(value, a.type)) put(a, value);
    }
    return this.project(changed);
  }

  /**
   * Rows with missing values dropped: `how` "any" (default) drops a row missing any of the
   * columns (of `subset`), "all" one missing all of them; `thresh` keeps rows with at least that
   * many present values (and overrides `how`).
   */
  drop(how: "any" | "all" = "any", thresh?: number, subset?: Subset): DataFrame {
    if (how !== "any" && how !== "all")
      throw new IllegalArgumentException(`[VALUE_NOT_ANY_OR_ALL] Value for \`how\` must be 'any' or 'all', got '${how}'.`);
    const cols = this.columns(subset);
    const need = thresh ?? (how === "any" ? cols.length : 1);
    if (cols.length === 0) return need > 0 ? this.df.filter(lit(false)) : this.df;
    let present: Column = lit(0);
    for (const a of cols) present = present.plus(when(missing(a), lit(0)).otherwise(lit(1)));
    return this.df.filter(present.geq(need));
  }

  /**
   * Values replaced: `replace(old, new)`, `replace([old1, old2], [new1, new2])`,
   * `replace([old1, old2], new)`, `replace({ old: new, ... })` (string keys) or
   * `replace(new Map([[1, 10]]))` (any keys); a new value may be null. Only
   * columns of the old values' kind change (numbers in numeric columns, strings in STRING ones).
   */
  replace(
    toReplace: FillValue | readonly FillValue[] | Readonly<Record<string, FillValue | null>> | ReadonlyMap<FillValue, FillValue | null>,
    value?: FillValue | null | readonly (FillValue | null)[],
    subset?: Subset,
  ): DataFrame {
    const pairs = replacementPairs(toReplace, value);
    if (pairs.length === 0) return this.df;
    const kinds = new Set(pairs.map(([k]) => typeof k));
    if (kinds.size > 1) throw new IllegalArgumentException("[MIXED_TYPE_REPLACEMENT] Mixed type replacements are not supported.");
    const changed = new Map<Attribute, Column>();
    for (const a of this.columns(subset)) {
      if (!applies(pairs[0]![0], a.type)) continue;
      // numbers compare as DOUBLE (Spark converts numeric keys to double); values take the column's type
      const key = (k: FillValue) => (typeof k === "number" ? ref(a).cast("double").equalTo(lit(k)) : ref(a).equalTo(lit(k)));
      let e: Column | null = null;
      for (const [k, v] of pairs) {
        const to = v === null ? lit(null).cast(a.type) : lit(v).cast(a.type);
        e = e === null ? when(key(k), to) : e.when(key(k), to);
      }
      changed.set(a, e!.otherwise(ref(a)));
    }
    return this.project(changed);
  }
}

function replacementPairs(
  toReplace: FillValue | readonly FillValue[] | Readonly<Record<string, FillValue | null>> | ReadonlyMap<FillValue, FillValue | null>,
  value: FillValue | null | readonly (FillValue | null)[] | undefined,
): [FillValue, FillValue | null][] {
  if (toReplace instanceof Map) return [...(toReplace as ReadonlyMap<FillValue, FillValue | null>)];
  if (Array.isArray(toReplace)) {
    const olds = toReplace as readonly FillValue[];
    if (Array.isArray(value)) {
      if (value.length !== olds.length)
        throw new IllegalArgumentException(
          `[LENGTH_SHOULD_BE_THE_SAME] to_replace and value should be of the same length, got ${olds.length} and ${value.length}.`,
        );
      return olds.map((k, i) => [k, (value as readonly (FillValue | null)[])[i]!]);
    }
    return olds.map((k) => [k, (value ?? null) as FillValue | null]);
  }
  if (typeof toReplace === "object") return Object.entries(toReplace as Record<string, FillValue | null>);
  if (value === undefined)
    throw new IllegalArgumentException("[ARGUMENT_REQUIRED] Argument `value` is required when replacing a single value.");
  return [[toReplace, value as FillValue | null]];
}
