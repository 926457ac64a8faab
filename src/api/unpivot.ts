/**
 * `df.unpivot(ids, values, variableColumnName, valueColumnName)` (and `melt`): each row becomes
 * one row per value column — the id columns, the value column's name, its value — as Spark's
 * Unpivot, here a `stack` generator over the values cast to their least common type (no
 * STRING promotion: Spark's UNPIVOT_VALUE_DATA_TYPE_MISMATCH). Works on streams too.
 */
import { AnalysisException } from "../common/errors.js";
import { type Attribute, call, cast, literal, multiAlias } from "../plan/expressions.js";
import { widerTypeOfAll } from "../types/coercion.js";
import { IntegerType, StringType, sqlTypeName, typesEqual } from "../types/datatypes.js";
import { Column, type ColumnOrName, col } from "./column.js";
import type { DataFrame } from "./dataframe.js";

/** The attribute a column name or a plain column reference stands for in `df`. */
function attributeOf(df: DataFrame, c: ColumnOrName): Attribute {
  const resolved = df.select(typeof c === "string" ? col(c) : c).output[0]!;
  return df.output.find((a) => a.exprId === resolved.exprId) ?? resolved;
}

export function unpivot(
  df: DataFrame,
  ids: ColumnOrName | readonly ColumnOrName[],
  values: ColumnOrName | readonly ColumnOrName[] | null | undefined,
  variableColumnName: string,
  valueColumnName: string,
): DataFrame {
  const idAttrs = (Array.isArray(ids) ? ids : [ids]).map((c) => attributeOf(df, c as ColumnOrName));
  const valueAttrs =
    values === null || values === undefined
      ? df.output.filter((a) => !idAttrs.some((i) => i.exprId === a.exprId))
      : (Array.isArray(values) ? values : [values]).map((c) => attributeOf(df, c as ColumnOrName));
  if (valueAttrs.length === 0) {
    throw new AnalysisException(
      "UNPIVOT_REQUIRES_VALUE_COLUMNS",
      "[UNPIVOT_REQUIRES_VALUE_COLUMNS] At least one value column needs to be specified for UNPIVOT, all columns specified as ids.",
    );
  }
  const type = widerTypeOfAll(
    valueAttrs.map((a) => a.type),
    false,
  );
  if (!type) {
    const listed = [...valueAttrs].sort((a, b) => sqlTypeName(a.type).localeCompare(sqlTypeName(b.type)));
    throw new AnalysisException(
      "UNPIVOT_VALUE_DATA_TYPE_MISMATCH",
      `[UNPIVOT_VALUE_DATA_TYPE_MISMATCH] Unpivot value columns must share a least common type, some types do not: [${listed.map((a) => `"${sqlTypeName(a.type)}" (\`${a.name}\`)`).join(", ")}].`,
    );
  }
  const stackArgs = [
    literal(valueAttrs.length, IntegerType),
    ...valueAttrs.flatMap((a) => [literal(a.name, StringType), typesEqual(a.type, type) ? a : cast(a, type, true)]),
  ];
  const rows = new Column(multiAlias(call("stack", stackArgs), [variableColumnName, valueColumnName]));
  return df.select(...idAttrs.map((a) => new Column(a)), rows);
}
