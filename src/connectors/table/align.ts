/**
 * Fitting written data to a table's schema: columns are matched by name (case-insensitively,
 * as Spark's saveAsTable append does) and put in table order; a column may widen the way the
 * Parquet reader allows (INT → BIGINT/DOUBLE, BIGINT → DOUBLE, VOID → anything).
 */
import { type Batch, makeBatch } from "../../columnar/batch.js";
import { decimalToDouble, widenToDecimal } from "../../columnar/decimal-vector.js";
import { getValue, nullVector, type Vector, vectorFromValues } from "../../columnar/vector.js";
import { AnalysisException } from "../../common/errors.js";
import { widensNumerically } from "../../types/coercion.js";
import { type DataType, type StructType, sqlTypeName, typesEqual } from "../../types/datatypes.js";

function incompatible(table: string, detail: string, reason: string): AnalysisException {
  return new AnalysisException(
    `INCOMPATIBLE_DATA_FOR_TABLE.${detail}`,
    `[INCOMPATIBLE_DATA_FOR_TABLE.${detail}] Cannot write incompatible data for the table ${table}: ${reason}`,
  );
}

function widens(from: DataType, to: DataType): boolean {
  return typesEqual(from, to) || from.kind === "null" || widensNumerically(from, to);
}

function convert(v: Vector, to: DataType, n: number): Vector {
  if (typesEqual(v.type, to)) return v;
  if (v.type.kind === "null") return nullVector(to, n);
  // Decimal values are unscaled integers: widening rescales them.
  if (to.kind === "decimal") return widenToDecimal(v, to);
  if (v.type.kind === "decimal") return decimalToDouble(v, to);
  return vectorFromValues(
    to,
    Array.from({ length: n }, (_, i) => getValue(v, i)),
  );
}

/** `batches` (laid out as `data`) rearranged into `table`'s columns; throws on a mismatch. */
export function alignToTable(tableName: string, table: StructType, data: StructType, batches: readonly Batch[]): Batch[] {
  const byName = new Map(data.fields.map((f, i) => [f.name.toLowerCase(), i]));
  const idx = table.fields.map((tf) => {
    const i = byName.get(tf.name.toLowerCase());
    if (i === undefined) throw incompatible(tableName, "CANNOT_FIND_DATA", `Cannot find data for the output column \`${tf.name}\`.`);
    const from = data.fields[i]!.type;
    if (!widens(from, tf.type)) {
      throw incompatible(
        tableName,
        "CANNOT_SAFELY_CAST",
        `Cannot safely cast \`${tf.name}\` "${sqlTypeName(from)}" to "${sqlTypeName(tf.type)}".`,
      );
    }
    return i;
  });
  const known = new Set(table.fields.map((f) => f.name.toLowerCase()));
  const extra = data.fields.filter((f) => !known.has(f.name.toLowerCase()));
  if (extra.length > 0) {
    throw incompatible(tableName, "EXTRA_COLUMNS", `Cannot write extra columns ${extra.map((f) => `\`${f.name}\``).join(", ")}.`);
  }
  const identity =
    idx.every((i, k) => i === k && typesEqual(data.fields[i]!.type, table.fields[k]!.type)) && idx.length === data.fields.length;
  if (identity) return [...batches];
  return batches.map((b) =>
    makeBatch(
      idx.map((i, k) => convert(b.columns[i]!, table.fields[k]!.type, b.numRows)),
      b.numRows,
    ),
  );
}
