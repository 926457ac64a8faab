/**
 * Spark's rule for the key type of a map made by a function (map, map_from_arrays,
 * map_from_entries, transform_keys): it cannot be or contain a MAP, at any depth — maps have no
 * equality to look a key up by.
 */
import { AnalysisException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import { type DataType, sqlTypeName } from "../types/datatypes.js";

function containsMap(t: DataType): boolean {
  switch (t.kind) {
    case "map":
      return true;
    case "array":
      return containsMap(t.elementType);
    case "struct":
      return t.fields.some((f) => containsMap(f.type));
    default:
      return false;
  }
}

/** Throws DATATYPE_MISMATCH.INVALID_MAP_KEY_TYPE when `keyType` is or contains a MAP. */
export function checkMapKeyType(call: Expr, keyType: DataType): void {
  if (!containsMap(keyType)) return;
  throw new AnalysisException(
    "DATATYPE_MISMATCH.INVALID_MAP_KEY_TYPE",
    `[DATATYPE_MISMATCH.INVALID_MAP_KEY_TYPE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: The key of map cannot be/contain "${sqlTypeName(keyType)}".`,
  );
}
