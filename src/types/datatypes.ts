/**
 * Spark SQL data types as frozen plain data.
 *
 * Physical layout (see src/columnar/vector.ts): BOOLEAN → Uint8Array, INT/DATE → Int32Array,
 * BIGINT/TIMESTAMP/DOUBLE → Float64Array (BIGINT and TIMESTAMP hold integers; a BigInt64Array
 * once a value passes ±2^53 − 1, columnar/int64.ts), STRING → string[],
 * DECIMAL(p, s) → its unscaled integer: Float64Array while p <= 15, bigint[] above
 * (src/types/decimal.ts),
 * BINARY/ARRAY/MAP → JS values, STRUCT → one child vector per field.
 */

export type AtomicTypeName =
  | "null"
  | "boolean"
  | "tinyint"
  | "smallint"
  | "int"
  | "bigint"
  | "float"
  | "double"
  | "string"
  | "timestamp"
  | "date"
  | "binary"
  /** Day-time interval, microseconds (Spark's INTERVAL DAY TO SECOND). */
  | "interval";

/** The fields of a day-time interval type, largest first (Spark's DayTimeIntervalType). */
export type DayTimeField = "DAY" | "HOUR" | "MINUTE" | "SECOND";
export const DAY_TIME_FIELDS: readonly DayTimeField[] = ["DAY", "HOUR", "MINUTE", "SECOND"];
export interface AtomicType {
  readonly kind: AtomicTypeName;
  /**
   * A day-time interval's start and end fields (`INTERVAL HOUR TO MINUTE`); absent means
   * DAY TO SECOND. They name the type and how its values print; every interval holds
   * microseconds, so they never change a value or its arithmetic.
   */
  readonly startField?: DayTimeField;
  readonly endField?: DayTimeField;
}
export interface ArrayType {
  readonly kind: "array";
  readonly elementType: DataType;
  readonly containsNull: boolean;
}
export interface MapType {
  readonly kind: "map";
  readonly keyType: DataType;
  readonly valueType: DataType;
  readonly valueContainsNull: boolean;
}
export interface StructField {
  readonly name: string;
  readonly type: DataType;
  readonly nullable: boolean;
  /** Column metadata, e.g. `spark.watermarkDelayMs` on an event-time column. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}
export interface StructType {
  readonly kind: "struct";
  readonly fields: readonly StructField[];
}

/** DECIMAL(precision, scale): exact, held as the unscaled integer (value × 10^scale). */
export interface DecimalType {
  readonly kind: "decimal";
  readonly precision: number;
  readonly scale: number;
}

export type DataType = AtomicType | DecimalType | ArrayType | MapType | StructType;

const atomic = (kind: AtomicTypeName): AtomicType => Object.freeze({ kind });

export const NullType = atomic("null");
export const BooleanType = atomic("boolean");
export const ByteType = atomic("tinyint");
export const ShortType = atomic("smallint");
export const IntegerType = atomic("int");
export const FloatType = atomic("float");
export const LongType = atomic("bigint");
export const DoubleType = atomic("double");
export const StringType = atomic("string");
export const TimestampType = atomic("timestamp");
export const DateType = atomic("date");
export const BinaryType = atomic("binary");
export const IntervalType = atomic("interval");
/** `INTERVAL start [TO end]`; DAY TO SECOND is plain IntervalType. */
export function DayTimeIntervalOf(start: DayTimeField, end: DayTimeField = start): AtomicType {
  if (start === "DAY" && end === "SECOND") return IntervalType;
  return Object.freeze({ kind: "interval", startField: start, endField: end });
}
/** The interval type's fields, [DAY, SECOND] by default. */
export function dayTimeFields(t: DataType): readonly [DayTimeField, DayTimeField] {
  const a = t as AtomicType;
  return [a.startField ?? "DAY", a.endField ?? "SECOND"];
}
function intervalTypeName(t: DataType): string {
  const [s, e] = dayTimeFields(t);
  return s === e ? `interval ${s.toLowerCase()}` : `interval ${s.toLowerCase()} to ${e.toLowerCase()}`;
}

export function ArrayOf(elementType: DataType, containsNull = true): ArrayType {
  return Object.freeze({ kind: "array", elementType, containsNull });
}
export function MapOf(keyType: DataType, valueType: DataType, valueContainsNull = true): MapType {
  return Object.freeze({ kind: "map", keyType, valueType, valueContainsNull });
}
export function field(name: string, type: DataType, nullable = true, metadata?: Record<string, unknown>): StructField {
  return Object.freeze(metadata ? { name, type, nullable, metadata } : { name, type, nullable });
}
export function StructOf(fields: readonly StructField[]): StructType {
  return Object.freeze({ kind: "struct", fields: Object.freeze([...fields]) });
}

/** The type of `window(...)` / `session_window(...)` columns. */
export const WindowStructType = StructOf([field("start", TimestampType, true), field("end", TimestampType, true)]);

export function isNumeric(t: DataType): boolean {
  switch (t.kind) {
    case "tinyint":
    case "smallint":
    case "int":
    case "bigint":
    case "float":
    case "double":
    case "decimal":
      return true;
    default:
      return false;
  }
}
export function isIntegral(t: DataType): boolean {
  return t.kind === "int" || t.kind === "bigint" || t.kind === "smallint" || t.kind === "tinyint";
}
export function isAtomic(t: DataType): t is AtomicType | DecimalType {
  return t.kind !== "array" && t.kind !== "map" && t.kind !== "struct";
}

/** Spark's simpleString: `int`, `bigint`, `struct<start:timestamp,end:timestamp>`. */
export function simpleString(t: DataType): string {
  switch (t.kind) {
    case "null":
      return "void";
    case "array":
      return `array<${simpleString(t.elementType)}>`;
    case "map":
      return `map<${simpleString(t.keyType)},${simpleString(t.valueType)}>`;
    case "struct":
      return `struct<${t.fields.map((f) => `${f.name}:${simpleString(f.type)}`).join(",")}>`;
    case "decimal":
      return `decimal(${t.precision},${t.scale})`;
    case "interval":
      return intervalTypeName(t);
    default:
      return t.kind;
  }
}

/** Spark's SQL type name (as in error messages): `"INT"`, `"STRUCT<start: TIMESTAMP, ...>"`. */
export function sqlTypeName(t: DataType): string {
  switch (t.kind) {
    case "null":
      return "VOID";
    case "array":
      return `ARRAY<${sqlTypeName(t.elementType)}>`;
    case "map":
      return `MAP<${sqlTypeName(t.keyType)}, ${sqlTypeName(t.valueType)}>`;
    case "struct":
      return `STRUCT<${t.fields.map((f) => `${f.name}: ${sqlTypeName(f.type)}`).join(", ")}>`;
    case "decimal":
      return `DECIMAL(${t.precision},${t.scale})`;
    case "interval":
      return intervalTypeName(t).toUpperCase();
    default:
      return t.kind.toUpperCase();
  }
}

/** Name used by printSchema (`integer`, `long`, `string`, ...). */
export function treeTypeName(t: DataType): string {
  switch (t.kind) {
    case "int":
      return "integer";
    case "tinyint":
      return "byte";
    case "smallint":
      return "short";
    case "bigint":
      return "long";
    case "null":
      return "void";
    case "decimal":
    case "interval":
      return simpleString(t);
    default:
      return t.kind;
  }
}

export function typesEqual(a: DataType, b: DataType): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "array":
      return typesEqual(a.elementType, (b as ArrayType).elementType);
    case "map":
      return typesEqual(a.keyType, (b as MapType).keyType) && typesEqual(a.valueType, (b as MapType).valueType);
    case "struct": {
      const bf = (b as StructType).fields;
      return a.fields.length === bf.length && a.fields.every((f, i) => f.name === bf[i]!.name && typesEqual(f.type, bf[i]!.type));
    }
    case "decimal":
      return a.precision === (b as DecimalType).precision && a.scale === (b as DecimalType).scale;
    default:
      return true;
  }
}
