/**
 * Schemas as Spark's `StructType.json` (`{"type":"struct","fields":[...]}`), so a table's
 * metadata reads like a Spark catalog entry and survives a round trip exactly.
 */
import { IllegalArgumentException } from "../../common/errors.js";
import {
  ArrayOf,
  BinaryType,
  BooleanType,
  ByteType,
  type DataType,
  DateType,
  type DayTimeField,
  DayTimeIntervalOf,
  DoubleType,
  FloatType,
  field,
  IntegerType,
  IntervalType,
  LongType,
  MapOf,
  NullType,
  ShortType,
  StringType,
  StructOf,
  type StructType,
  simpleString,
  TimestampType,
} from "../../types/datatypes.js";
import { DecimalOf, decimalBoundsError } from "../../types/decimal.js";

export type JsonType = string | { readonly [k: string]: unknown };

const ATOMIC_TO_JSON: Record<string, string> = {
  null: "void",
  boolean: "boolean",
  tinyint: "byte",
  smallint: "short",
  float: "float",
  int: "integer",
  bigint: "long",
  double: "double",
  string: "string",
  timestamp: "timestamp",
  date: "date",
  binary: "binary",
  interval: "interval day to second",
};

const JSON_TO_ATOMIC: Record<string, DataType> = {
  void: NullType,
  null: NullType,
  boolean: BooleanType,
  byte: ByteType,
  short: ShortType,
  float: FloatType,
  integer: IntegerType,
  long: LongType,
  double: DoubleType,
  string: StringType,
  timestamp: TimestampType,
  date: DateType,
  binary: BinaryType,
  "interval day to second": IntervalType,
};

export function typeToJson(t: DataType): JsonType {
  switch (t.kind) {
    case "array":
      return { type: "array", elementType: typeToJson(t.elementType), containsNull: t.containsNull };
    case "map":
      return { type: "map", keyType: typeToJson(t.keyType), valueType: typeToJson(t.valueType), valueContainsNull: t.valueContainsNull };
    case "struct":
      return {
        type: "struct",
        fields: t.fields.map((f) => ({ name: f.name, type: typeToJson(f.type), nullable: f.nullable, metadata: f.metadata ?? {} })),
      };
    case "decimal":
      return `decimal(${t.precision},${t.scale})`;
    case "interval":
      return simpleString(t);
    default:
      return ATOMIC_TO_JSON[t.kind]!;
  }
}

function bad(j: unknown): IllegalArgumentException {
  return new IllegalArgumentException(`Failed to convert the JSON string '${JSON.stringify(j)}' to a data type.`);
}

export function typeFromJson(j: unknown): DataType {
  if (typeof j === "string") {
    const t = JSON_TO_ATOMIC[j];
    if (t) return t;
    const iv = /^interval (day|hour|minute|second)(?: to (day|hour|minute|second))?$/.exec(j);
    if (iv) return DayTimeIntervalOf(iv[1]!.toUpperCase() as DayTimeField, (iv[2] ?? iv[1]!).toUpperCase() as DayTimeField);
    const d = /^decimal\((\d+),\s*(\d+)\)$/.exec(j);
    if (d && decimalBoundsError(Number(d[1]), Number(d[2])) === null) return DecimalOf(Number(d[1]), Number(d[2]));
    throw bad(j);
  }
  if (j === null || typeof j !== "object") throw bad(j);
  const o = j as Record<string, unknown>;
  switch (o.type) {
    case "array":
      return ArrayOf(typeFromJson(o.elementType), o.containsNull !== false);
    case "map":
      return MapOf(typeFromJson(o.keyType), typeFromJson(o.valueType), o.valueContainsNull !== false);
    case "struct": {
      if (!Array.isArray(o.fields)) throw bad(j);
      return StructOf(
        o.fields.map((f: Record<string, unknown>) => {
          const meta = f.metadata as Record<string, unknown> | undefined;
          return field(String(f.name), typeFromJson(f.type), f.nullable !== false, meta && Object.keys(meta).length > 0 ? meta : undefined);
        }),
      );
    }
    default:
      throw bad(j);
  }
}

export function schemaFromJson(j: unknown): StructType {
  const t = typeFromJson(j);
  if (t.kind !== "struct") throw bad(j);
  return t;
}
