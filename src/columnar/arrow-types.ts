/**
 * Our data types ⇄ Arrow types and schemas: the one mapping that Arrow export (arrow-export.ts)
 * and import (arrow-import.ts) share. TIMESTAMP is Timestamp(MICROSECOND, "UTC") and INTERVAL
 * Duration(MICROSECOND) on write; on read every Arrow type with a value form of ours maps to it.
 */
import * as arrow from "apache-arrow";
import {
  ArrayOf,
  BinaryType,
  BooleanType,
  ByteType,
  type DataType,
  DateType,
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
  TimestampType,
} from "../types/datatypes.js";
import { DecimalOf, MAX_PRECISION } from "../types/decimal.js";
import { toArrowDecimal } from "./arrow-decimal.js";

export function toArrowType(t: DataType): arrow.DataType {
  switch (t.kind) {
    case "null":
      return new arrow.Null();
    case "boolean":
      return new arrow.Bool();
    case "tinyint":
      return new arrow.Int8();
    case "smallint":
      return new arrow.Int16();
    case "int":
      return new arrow.Int32();
    case "bigint":
      return new arrow.Int64();
    case "float":
      return new arrow.Float32();
    case "double":
      return new arrow.Float64();
    case "decimal":
      return toArrowDecimal(t);
    case "string":
      return new arrow.Utf8();
    case "binary":
      return new arrow.Binary();
    case "date":
      return new arrow.DateDay();
    case "timestamp":
      return new arrow.Timestamp(arrow.TimeUnit.MICROSECOND, "UTC");
    case "interval":
      return new arrow.Duration(arrow.TimeUnit.MICROSECOND);
    case "array":
      return new arrow.List(new arrow.Field("element", toArrowType(t.elementType), t.containsNull));
    case "map":
      return new arrow.Map_(
        new arrow.Field(
          "entries",
          new arrow.Struct<{ key: arrow.DataType; value: arrow.DataType }>([
            new arrow.Field("key", toArrowType(t.keyType), false),
            new arrow.Field("value", toArrowType(t.valueType), t.valueContainsNull),
          ] as arrow.Field[]),
          false,
        ),
      );
    case "struct":
      return new arrow.Struct(t.fields.map((f) => new arrow.Field(f.name, toArrowType(f.type), f.nullable)));
  }
}

export function toArrowSchema(schema: StructType): arrow.Schema {
  return new arrow.Schema(schema.fields.map((f) => new arrow.Field(f.name, toArrowType(f.type), f.nullable)));
}

/** Arrow type → ours (narrow integers widen to int/bigint, decimals and floats to double). */
export function fromArrowType(t: arrow.DataType): DataType {
  switch (t.typeId) {
    case arrow.Type.Null:
      return NullType;
    case arrow.Type.Bool:
      return BooleanType;
    case arrow.Type.Int: {
      const it = t as arrow.Int;
      if (it.isSigned && it.bitWidth === 8) return ByteType;
      if (it.isSigned && it.bitWidth === 16) return ShortType;
      return it.bitWidth < 32 || (it.bitWidth === 32 && it.isSigned) ? IntegerType : LongType;
    }
    case arrow.Type.Float:
      return (t as arrow.Float).precision === arrow.Precision.SINGLE ? FloatType : DoubleType;
    case arrow.Type.Decimal: {
      const dt = t as arrow.Decimal;
      return dt.precision <= MAX_PRECISION && dt.scale >= 0 && dt.scale <= dt.precision ? DecimalOf(dt.precision, dt.scale) : DoubleType;
    }
    case arrow.Type.Utf8:
    case arrow.Type.LargeUtf8:
    case arrow.Type.Utf8View:
      return StringType;
    case arrow.Type.Binary:
    case arrow.Type.LargeBinary:
    case arrow.Type.BinaryView:
    case arrow.Type.FixedSizeBinary:
      return BinaryType;
    case arrow.Type.Date:
      return DateType;
    case arrow.Type.Timestamp:
      return TimestampType;
    case arrow.Type.Duration:
      return IntervalType;
    case arrow.Type.List:
    case arrow.Type.LargeList:
    case arrow.Type.FixedSizeList: {
      const child = (t as arrow.List).children[0]!;
      return ArrayOf(fromArrowType(child.type), child.nullable);
    }
    case arrow.Type.Struct:
      return StructOf((t as arrow.Struct).children.map((f) => field(f.name, fromArrowType(f.type), f.nullable)));
    case arrow.Type.Map: {
      const entries = (t as arrow.Map_).children[0]!.type as arrow.Struct;
      const [k, v] = entries.children;
      return MapOf(fromArrowType(k!.type), fromArrowType(v!.type), v!.nullable);
    }
    case arrow.Type.Dictionary:
      return fromArrowType((t as arrow.Dictionary).dictionary);
    default:
      throw new Error(`Unsupported Arrow type: ${String(t)}`);
  }
}

export function fromArrowSchema(s: arrow.Schema): StructType {
  return StructOf(s.fields.map((f) => field(f.name, fromArrowType(f.type), f.nullable)));
}
