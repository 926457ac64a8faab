/**
 * A processor's rows ↔ the engine's internal values, for one struct schema: user rows are
 * plain objects keyed by field name (arrays in field order are accepted too); internal rows are
 * arrays of internal values in field order, as the state store keeps them.
 */
import { ArusError } from "../../../common/errors.js";
import type { ProcessorValues } from "../../../plan/logical.js";
import type { ProcessorRow } from "../../../plan/stateful-processor.js";
import type { StructType } from "../../../types/datatypes.js";

export class RowCodec {
  private readonly names: readonly string[];
  private readonly known: ReadonlySet<string>;
  constructor(
    readonly schema: StructType,
    private readonly values: ProcessorValues,
    /** What these rows are, for error messages ("state variable \"count\""). */
    private readonly what: string,
  ) {
    this.names = schema.fields.map((f) => f.name);
    this.known = new Set(this.names);
  }

  toInternal(row: unknown): unknown[] {
    const fields = this.schema.fields;
    const out = new Array<unknown>(fields.length);
    if (Array.isArray(row)) {
      if (row.length !== fields.length) {
        throw new ArusError(
          "STATEFUL_PROCESSOR_ROW_MISMATCH",
          `${this.what}: a row given as an array has ${row.length} values, but the schema has ${fields.length} fields (${this.names.join(", ")}).`,
        );
      }
      for (let i = 0; i < fields.length; i++) out[i] = this.field(row[i], i);
      return out;
    }
    if (row === null || typeof row !== "object" || row instanceof Date) {
      throw new ArusError(
        "STATEFUL_PROCESSOR_ROW_MISMATCH",
        `${this.what}: expected a row (an object with fields ${this.names.join(", ")}), got ${row === null ? "null" : typeof row === "object" ? "a Date" : typeof row}.`,
      );
    }
    const obj = row as ProcessorRow;
    for (const k of Object.keys(obj)) {
      if (!this.known.has(k)) {
        throw new ArusError(
          "STATEFUL_PROCESSOR_ROW_MISMATCH",
          `${this.what}: the row has a field "${k}" that the schema (${this.names.join(", ")}) does not declare.`,
        );
      }
    }
    for (let i = 0; i < fields.length; i++) out[i] = this.field(obj[fields[i]!.name], i);
    return out;
  }

  private field(v: unknown, i: number): unknown {
    const f = this.schema.fields[i]!;
    const where = `${this.what}, field "${f.name}"`;
    const x = this.values.toInternal(v, f.type, where);
    if (x === null && !f.nullable) {
      throw new ArusError("STATEFUL_PROCESSOR_ROW_MISMATCH", `${where}: null in a non-nullable field.`);
    }
    return x;
  }

  /** Internal values from `offset` on → a user row. */
  toExternal(row: readonly unknown[], offset = 0): ProcessorRow {
    const out: ProcessorRow = {};
    const fields = this.schema.fields;
    for (let i = 0; i < fields.length; i++) out[fields[i]!.name] = this.values.toExternal(row[offset + i], fields[i]!.type);
    return out;
  }
}
