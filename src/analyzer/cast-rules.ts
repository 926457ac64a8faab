/**
 * Which casts Spark refuses at analysis, and with which error (DATATYPE_MISMATCH.CAST_*), under
 * ANSI (Spark 4's default; TRY_CAST always) and without it. Measured against PySpark 4.3 over
 * fifteen types in both settings: an ARRAY, MAP, STRUCT or BINARY casts only to a STRING or to
 * its own kind; a number or BOOLEAN never to a DATE; a DATE or TIMESTAMP never to BINARY or an
 * interval; under ANSI a DATE not to a number or BOOLEAN, a BOOLEAN not to a TIMESTAMP, an
 * integer not to BINARY. What is allowed is left to functions/cast.ts.
 */
import { AnalysisException } from "../common/errors.js";
import type { Cast } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { type DataType, isIntegral, isNumeric, sqlTypeName } from "../types/datatypes.js";

type Refusal = "WITHOUT" | "CONF" | "FUNC";

const isComplex = (t: DataType) => t.kind === "array" || t.kind === "map" || t.kind === "struct";
const isInterval = (t: DataType) => t.kind === "interval";

/** Spark's refusal of a cast from `from` to `to`, or null where it is allowed. */
export function castRefusal(from: DataType, to: DataType, ansi: boolean): Refusal | null {
  if (from.kind === "null" || to.kind === "string") return null;
  if (from.kind === to.kind && !isComplex(from)) return null;
  if (from.kind === "array" && to.kind === "array") return castRefusal(from.elementType, to.elementType, ansi);
  if (from.kind === "map" && to.kind === "map")
    return castRefusal(from.keyType, to.keyType, ansi) ?? castRefusal(from.valueType, to.valueType, ansi);
  if (from.kind === "struct" && to.kind === "struct") {
    if (from.fields.length !== to.fields.length) return "WITHOUT";
    for (let i = 0; i < from.fields.length; i++) {
      const r = castRefusal(from.fields[i]!.type, to.fields[i]!.type, ansi);
      if (r !== null) return r;
    }
    return null;
  }
  if (isComplex(from) || isComplex(to) || from.kind === "binary") return "WITHOUT";
  if (from.kind === "string") return null; // parsed (functions/cast.ts)
  const numeric = isNumeric(from);
  switch (to.kind) {
    case "date":
      if (from.kind === "timestamp") return null;
      return ansi && numeric ? "FUNC" : "WITHOUT";
    case "timestamp":
      if (from.kind === "boolean") return ansi ? "CONF" : null;
      return numeric || from.kind === "date" ? null : "WITHOUT";
    case "binary":
      if (isIntegral(from)) return ansi ? "CONF" : null;
      return "WITHOUT";
    case "boolean":
      if (from.kind === "date" || from.kind === "timestamp") return ansi ? "CONF" : null;
      return numeric ? null : "WITHOUT";
    case "interval":
      return isIntegral(from) || from.kind === "decimal" ? null : "WITHOUT";
    default:
      if (!isNumeric(to)) return null; // other targets: left to functions/cast.ts
      if (from.kind === "date") return ansi ? "FUNC" : null;
      if (isInterval(from)) return isIntegral(to) || to.kind === "decimal" ? null : "WITHOUT";
      return null;
  }
}

/** Spark's analysis error for a refused cast `c` from type `from`. */
export function castRefused(c: Cast, from: DataType, refusal: Refusal): AnalysisException {
  const fromText = sqlTypeName(from);
  const toText = sqlTypeName(c.to);
  // Spark names the cast's child, not the cast, when the target is an ARRAY, MAP or STRUCT
  const subject = isComplex(c.to) ? exprToSql(c.child) : exprToSql(c);
  const sub =
    refusal === "WITHOUT" ? "CAST_WITHOUT_SUGGESTION" : refusal === "CONF" ? "CAST_WITH_CONF_SUGGESTION" : "CAST_WITH_FUNC_SUGGESTION";
  const detail = `cannot cast "${fromText}" to "${toText}"${refusal === "CONF" ? " with ANSI mode on" : ""}.`;
  return new AnalysisException(
    `DATATYPE_MISMATCH.${sub}`,
    `[DATATYPE_MISMATCH.${sub}] Cannot resolve "${subject}" due to data type mismatch: ${detail}`,
  );
}
