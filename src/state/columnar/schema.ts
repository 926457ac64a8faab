/**
 * The shape of a columnar aggregation state table: its key columns and its buffer (value)
 * columns, each with the physical layout it is stored in. `columnarSchemaOf` decides whether a
 * grouping can be stored columnar at all; anything it refuses stays in the row store.
 *
 * Key columns:
 * - `num`: BOOLEAN, INT, DATE, BIGINT, DOUBLE, TIMESTAMP, INTERVAL, stored inline per entry
 *   (u8 / i32 / f64), with a validity byte column when nullable;
 * - `str`: STRING, stored as an i32 id into a refcounted per-table dictionary;
 * - `struct`: a STRUCT of numeric fields (the `window` column), stored as an i32 id into a
 *   refcounted tuple dictionary: there are few windows live at a time;
 * - `null`: NULL type, nothing stored.
 * Buffer columns are numeric (u8 / i32 / f64) with an optional validity byte column.
 */
import { type Physical, physicalOf } from "../../columnar/vector.js";
import type { DataType, StructType } from "../../types/datatypes.js";
import { simpleString } from "../../types/datatypes.js";

/** The typed-array layouts (a vector's `Physical` without the object and struct ones). */
export type Phys = Extract<Physical, "u8" | "i32" | "f64">;

export type KeyColumn =
  | { readonly kind: "num"; readonly type: DataType; readonly phys: Phys }
  | { readonly kind: "str"; readonly type: DataType }
  | { readonly kind: "struct"; readonly type: StructType; readonly fields: readonly Phys[] }
  | { readonly kind: "null"; readonly type: DataType };

export interface BufferColumn {
  readonly type: DataType;
  readonly phys: Phys;
  /** Has a validity byte column (sum's value before any row, min's value, ...). */
  readonly nullable: boolean;
}

export interface ColumnarSchema {
  readonly keys: readonly KeyColumn[];
  readonly buffers: readonly BufferColumn[];
  /** Text identifying the layout; written into every state file and checked on load. */
  readonly signature: string;
}

/**
 * Physical layout of a numeric type (the vectors' own, columnar/vector.ts `physicalOf`), or
 * null for types the columnar store does not hold inline.
 */
export function physOf(t: DataType): Phys | null {
  const p = physicalOf(t);
  return p === "u8" || p === "i32" || p === "f64" ? p : null;
}

function keyColumnOf(t: DataType): KeyColumn | null {
  if (t.kind === "string") return { kind: "str", type: t };
  if (t.kind === "null") return { kind: "null", type: t };
  if (t.kind === "struct") {
    if (t.fields.length === 0) return null;
    const fields: Phys[] = [];
    for (const f of t.fields) {
      const p = physOf(f.type);
      if (!p) return null;
      fields.push(p);
    }
    return { kind: "struct", type: t, fields };
  }
  const phys = physOf(t);
  return phys ? { kind: "num", type: t, phys } : null;
}

/** The columnar layout for these key and buffer types, or null when some type does not fit. */
export function columnarSchemaOf(
  keyTypes: readonly DataType[],
  bufferTypes: readonly { readonly type: DataType; readonly nullable: boolean }[],
): ColumnarSchema | null {
  const keys: KeyColumn[] = [];
  for (const t of keyTypes) {
    const k = keyColumnOf(t);
    if (!k) return null;
    keys.push(k);
  }
  const buffers: BufferColumn[] = [];
  for (const { type, nullable } of bufferTypes) {
    const phys = physOf(type);
    if (!phys) return null;
    buffers.push({ type, phys, nullable });
  }
  const signature = `keys(${keyTypes.map(simpleString).join(", ")}) buffers(${bufferTypes.map((b) => simpleString(b.type) + (b.nullable ? "?" : "")).join(", ")})`;
  return { keys, buffers, signature };
}
