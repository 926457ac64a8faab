/**
 * Column vectors → JSON lines as Spark writes them: null fields omitted (`ignoreNullFields`),
 * doubles in Java's notation (`1.0`, `1.0E10`, `"NaN"`), timestamps as
 * `yyyy-MM-dd'T'HH:mm:ss.SSSXXX` in the session zone, dates `yyyy-MM-dd`, binary as base64.
 */
import type { Batch } from "../../../columnar/batch.js";
import { isValid, type Vector } from "../../../columnar/vector.js";
import { formatDouble } from "../../../common/number-format.js";
import { setField } from "../../../common/row-object.js";
import { javaFloatToString } from "../../../common/show.js";
import type { DataType, StructType } from "../../../types/datatypes.js";
import { javaBigDecimalString, unscaledOf } from "../../../types/decimal.js";
import { formatDayTimeInterval } from "../../../types/interval-text.js";
import type { DateTimeText } from "../datetime-text.js";
import { mapKeyText } from "./json-map-keys.js";

type ValueWriter = (v: unknown) => string;

export function integerText(v: number | bigint): string {
  if (typeof v === "bigint") return v.toString(); // the wide lane of columnar/int64.ts
  return Number.isSafeInteger(v) ? String(v) : BigInt(Math.trunc(v)).toString();
}

function valueWriter(type: DataType, dt: DateTimeText, writeNulls: boolean): ValueWriter {
  switch (type.kind) {
    case "tinyint":
    case "smallint":
    case "int":
    case "bigint":
      return (v) => integerText(v as number | bigint);
    case "float":
      return (v) => (Number.isFinite(v) ? javaFloatToString(v as number) : `"${javaFloatToString(v as number)}"`);
    case "decimal":
      // Jackson writes a BigDecimal with its toString (plain unless tiny: 0E-10).
      return (v) => javaBigDecimalString(unscaledOf(v), type.scale);
    case "double":
      return (v) => (Number.isFinite(v) ? formatDouble(v as number) : `"${formatDouble(v as number)}"`);
    case "boolean":
      return (v) => (v ? "true" : "false");
    case "string":
      return (v) => JSON.stringify(v);
    case "timestamp":
      return (v) => `"${dt.formatTimestamp(v as number | bigint)}"`;
    case "date":
      return (v) => `"${dt.formatDate(v as number)}"`;
    case "binary":
      return (v) => `"${Buffer.from(v as Uint8Array).toString("base64")}"`;
    case "null":
      return () => "null";
    case "interval":
      // Spark writes a day-time interval as its SQL text: "INTERVAL '0 12:00:00' DAY TO SECOND"
      return (v) => JSON.stringify(formatDayTimeInterval(v as number, type));
    case "array": {
      const w = valueWriter(type.elementType, dt, writeNulls);
      return (v) => `[${(v as unknown[]).map((x) => (x === null || x === undefined ? "null" : w(x))).join(",")}]`;
    }
    case "map": {
      const w = valueWriter(type.valueType, dt, writeNulls);
      const key = mapKeyText(type.keyType);
      return (v) => {
        const parts: string[] = [];
        for (const [k, x] of v as Map<unknown, unknown>)
          parts.push(`${JSON.stringify(key(k))}:${x === null || x === undefined ? "null" : w(x)}`);
        return `{${parts.join(",")}}`;
      };
    }
    case "struct": {
      const keys = type.fields.map((f) => `${JSON.stringify(f.name)}:`);
      const ws = type.fields.map((f) => valueWriter(f.type, dt, writeNulls));
      const names = type.fields.map((f) => f.name);
      return (v) => {
        const o = v as Record<string, unknown>;
        let out = "{";
        let first = true;
        for (let i = 0; i < names.length; i++) {
          const x = o[names[i]!];
          if (x === null || x === undefined) {
            if (!writeNulls) continue;
            out += `${first ? "" : ","}${keys[i]}null`;
          } else out += `${first ? "" : ","}${keys[i]}${ws[i]!(x)}`;
          first = false;
        }
        return `${out}}`;
      };
    }
    default:
      throw new Error(`JSON cannot write ${(type as DataType).kind}`);
  }
}

/** Internal value of row i (structs rebuilt from their children as objects). */
function rowValue(vec: Vector, i: number): unknown {
  if (vec.children) {
    const t = vec.type as StructType;
    const o: Record<string, unknown> = {};
    t.fields.forEach((f, k) => {
      const c = vec.children![k]!;
      setField(o, f.name, isValid(c, i) ? rowValue(c, i) : null);
    });
    return o;
  }
  return vec.values[i];
}

/** Top-level cell writer reading a vector directly; null means SQL NULL. */
function cellWriter(type: DataType, dt: DateTimeText, writeNulls: boolean): (vec: Vector, i: number) => string | null {
  const w = valueWriter(type, dt, writeNulls);
  if (type.kind === "struct") return (vec, i) => (isValid(vec, i) ? w(rowValue(vec, i)) : null);
  return (vec, i) => (vec.validity !== null && vec.validity[i] === 0 ? null : w(vec.values[i]));
}

/** The batch's rows as JSON objects, each followed by `lineSep` (the writer's option, `\n` by default). */
export function encodeJsonLines(schema: StructType, batch: Batch, dt: DateTimeText, writeNulls: boolean, lineSep = "\n"): string {
  const nf = schema.fields.length;
  const keys = schema.fields.map((f) => `${JSON.stringify(f.name)}:`);
  const writers = schema.fields.map((f) => cellWriter(f.type, dt, writeNulls));
  const cols = batch.columns;
  // All fragments of the batch, joined once at the end.
  const parts: string[] = [];
  for (let r = 0; r < batch.numRows; r++) {
    parts.push("{");
    let first = true;
    for (let c = 0; c < nf; c++) {
      const text = writers[c]!(cols[c]!, r);
      if (text === null && !writeNulls) continue;
      if (!first) parts.push(",");
      parts.push(keys[c]!, text ?? "null");
      first = false;
    }
    parts.push("}", lineSep);
  }
  return parts.join("");
}
