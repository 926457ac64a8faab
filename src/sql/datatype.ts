/**
 * Data type and DDL schema parsing (`INT`, `ARRAY<STRING>`, `"id INT NOT NULL, ts TIMESTAMP"`).
 *
 * arus has fewer physical types than Spark, so several Spark names collapse onto one type:
 * VARCHAR/CHAR → STRING.
 */
import { ParseException } from "../common/errors.js";
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
  type StructField,
  StructOf,
  type StructType,
  TimestampType,
} from "../types/datatypes.js";
import { DecimalOf, decimalBoundsError } from "../types/decimal.js";
import { Cursor } from "./cursor.js";

const SIMPLE: Readonly<Record<string, DataType>> = {
  BOOLEAN: BooleanType,
  TINYINT: ByteType,
  BYTE: ByteType,
  SMALLINT: ShortType,
  SHORT: ShortType,
  INT: IntegerType,
  INTEGER: IntegerType,
  BIGINT: LongType,
  LONG: LongType,
  FLOAT: FloatType,
  REAL: FloatType,
  DOUBLE: DoubleType,
  STRING: StringType,
  TIMESTAMP: TimestampType,
  TIMESTAMP_LTZ: TimestampType,
  DATE: DateType,
  BINARY: BinaryType,
  VOID: NullType,
};

const DAY_TIME_UNITS = new Set(["DAY", "HOUR", "MINUTE", "SECOND"]);

export function monthIntervalError(cur: Cursor, at = cur.peek()): ParseException {
  return cur.fail(
    "[UNSUPPORTED_FEATURE] Year-month interval columns are not supported: arus interval values are day-time only " +
      "(a year-month literal such as INTERVAL 1 MONTH can be added to or subtracted from a DATE or TIMESTAMP).",
    at,
  );
}

/** Parse one data type at the cursor. */
export function readDataType(cur: Cursor): DataType {
  const tok = cur.peek();
  if (tok.kind !== "ident") throw cur.error();
  const name = tok.value.toUpperCase();
  cur.next();
  const simple = SIMPLE[name];
  if (simple) return simple;
  switch (name) {
    case "DECIMAL":
    case "DEC":
    case "NUMERIC": {
      // DECIMAL alone is DECIMAL(10, 0), DECIMAL(p) is DECIMAL(p, 0), as in Spark.
      const [p = 10, s = 0] = readSizeParams(cur, 2);
      const bad = decimalBoundsError(p, s);
      if (bad) throw cur.fail(bad, tok);
      return DecimalOf(p, s);
    }
    case "VARCHAR":
    case "CHAR":
    case "CHARACTER":
      readSizeParams(cur, 1);
      return StringType;
    case "ARRAY": {
      openAngle(cur);
      const element = readDataType(cur);
      closeAngle(cur);
      return ArrayOf(element);
    }
    case "MAP": {
      openAngle(cur);
      const key = readDataType(cur);
      cur.expectOp(",");
      const value = readDataType(cur);
      closeAngle(cur);
      return MapOf(key, value);
    }
    case "STRUCT": {
      if (cur.acceptOp("<>")) return StructOf([]);
      openAngle(cur);
      const fields: StructField[] = [];
      if (!cur.isOp(">")) {
        do fields.push(readField(cur));
        while (cur.acceptOp(","));
      }
      closeAngle(cur);
      return StructOf(fields);
    }
    case "INTERVAL":
      return readIntervalType(cur);
    default:
      throw cur.fail(`[UNSUPPORTED_DATATYPE] Unsupported data type "${name}".`, tok);
  }
}

/** `INTERVAL [DAY|HOUR|MINUTE|SECOND [TO ...]]`: a day-time interval type with those fields. */
function readIntervalType(cur: Cursor): DataType {
  const unitTok = cur.peek();
  const unit = unitTok.kind === "ident" ? unitTok.value.toUpperCase() : "";
  if (unit === "YEAR" || unit === "MONTH") throw monthIntervalError(cur, unitTok);
  if (!DAY_TIME_UNITS.has(unit)) return IntervalType;
  cur.next();
  let end = unit;
  if (cur.acceptKeyword("TO")) {
    const toTok = cur.peek();
    if (toTok.kind !== "ident" || !DAY_TIME_UNITS.has(toTok.value.toUpperCase())) throw cur.error(toTok);
    end = cur.next().value.toUpperCase();
  }
  return DayTimeIntervalOf(unit as DayTimeField, end as DayTimeField);
}

function openAngle(cur: Cursor): void {
  cur.expectOp("<");
}
function closeAngle(cur: Cursor): void {
  cur.expectOp(">");
}

/** Optional `(n)` or `(p, s)` size parameters: integers only, at most `max` of them. */
function readSizeParams(cur: Cursor, max: number): number[] {
  const out: number[] = [];
  if (!cur.acceptOp("(")) return out;
  for (let k = 0; k < max; k++) {
    const t = cur.peek();
    if (t.kind !== "number" || !/^\d+$/.test(t.text)) throw cur.error(t);
    cur.next();
    out.push(Number(t.text));
    if (!cur.acceptOp(",")) break;
  }
  cur.expectOp(")");
  return out;
}

/**
 * A column / struct field: `name [:] type [NOT NULL] [COMMENT 'text']`. The colon is optional
 * both in STRUCT<...> and in schema strings (PySpark accepts `"a: int, b: string"`).
 */
function readField(cur: Cursor): StructField {
  const nameTok = cur.peek();
  if (nameTok.kind !== "ident" && nameTok.kind !== "qident") throw cur.error();
  cur.next();
  cur.acceptOp(":");
  const type = readDataType(cur);
  let nullable = true;
  let comment: string | null = null;
  for (;;) {
    if (cur.acceptKeyword("NOT", "NULL")) nullable = false;
    else if (cur.acceptKeyword("COMMENT")) {
      const t = cur.peek();
      if (t.kind !== "string") throw cur.error(t);
      comment = cur.next().value;
    } else break;
  }
  return comment === null ? field(nameTok.value, type, nullable) : field(nameTok.value, type, nullable, { comment });
}

export function parseDataType(text: string): DataType {
  const cur = new Cursor(text);
  if (cur.atEnd()) throw emptyError(text, "data type");
  const t = readDataType(cur);
  cur.expectEnd();
  return t;
}

/** `"a INT, b STRING"` (or a whole `STRUCT<...>`) → StructType. */
export function parseSchema(ddl: string): StructType {
  const cur = new Cursor(ddl);
  if (cur.atEnd()) throw emptyError(ddl, "schema");
  if (cur.isKeyword("STRUCT") && (cur.isOp("<", 1) || cur.isOp("<>", 1))) {
    const t = readDataType(cur);
    cur.expectEnd();
    return t as StructType;
  }
  const fields: StructField[] = [];
  do fields.push(readField(cur));
  while (cur.acceptOp(","));
  cur.expectEnd();
  return StructOf(fields);
}

function emptyError(text: string, what: string): ParseException {
  return new ParseException(`[PARSE_EMPTY_STATEMENT] Syntax error, unexpected empty statement: the ${what} string is empty.`, text, 0);
}
