import { describe, it } from "node:test";
import { parseDataType, parseSchema } from "../../src/sql/index.js";
import {
  ArrayOf,
  BinaryType,
  BooleanType,
  ByteType,
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
  TimestampType,
} from "../../src/types/datatypes.js";
import { DecimalOf } from "../../src/types/decimal.js";
import { parseFails, same } from "./helpers.js";

describe("parseDataType", () => {
  it("maps Spark type names, case-insensitively", () => {
    const cases: [string, unknown][] = [
      ["INT", IntegerType],
      ["integer", IntegerType],
      ["BIGINT", LongType],
      ["long", LongType],
      ["SMALLINT", ShortType],
      ["short", ShortType],
      ["tinyint", ByteType],
      ["BYTE", ByteType],
      ["DOUBLE", DoubleType],
      ["float", FloatType],
      ["REAL", FloatType],
      ["DECIMAL(10, 2)", DecimalOf(10, 2)],
      ["decimal", DecimalOf(10, 0)],
      ["numeric(5)", DecimalOf(5, 0)],
      ["DEC(38,38)", DecimalOf(38, 38)],
      ["STRING", StringType],
      ["VARCHAR(20)", StringType],
      ["char(3)", StringType],
      ["BOOLEAN", BooleanType],
      ["TIMESTAMP", TimestampType],
      ["timestamp_ltz", TimestampType],
      ["DATE", DateType],
      ["BINARY", BinaryType],
      ["void", NullType],
      ["INTERVAL DAY TO SECOND", IntervalType],
    ];
    for (const [text, t] of cases) same(parseDataType(text), t);
  });
  it("reads nested array, map and struct types", () => {
    same(parseDataType("ARRAY<INT>"), ArrayOf(IntegerType));
    same(parseDataType("map<string, array<bigint>>"), MapOf(StringType, ArrayOf(LongType)));
    same(parseDataType("ARRAY<ARRAY<STRING>>"), ArrayOf(ArrayOf(StringType)));
    same(
      parseDataType("STRUCT<a: INT, b STRING NOT NULL, `c d`: MAP<STRING, STRUCT<x: DOUBLE>>>"),
      StructOf([
        field("a", IntegerType),
        field("b", StringType, false),
        field("c d", MapOf(StringType, StructOf([field("x", DoubleType)]))),
      ]),
    );
    same(parseDataType("struct<>"), StructOf([]));
    same(parseDataType("struct<start:timestamp,end:timestamp>"), StructOf([field("start", TimestampType), field("end", TimestampType)]));
  });
  it("reports unknown types and malformed brackets", () => {
    parseFails(() => parseDataType("FOO"), '[UNSUPPORTED_DATATYPE] Unsupported data type "FOO".', 0);
    parseFails(() => parseDataType("ARRAY<WAT>"), 'Unsupported data type "WAT"', 6);
    parseFails(() => parseDataType("STRUCT<a INT"), "Syntax error at or near end of input", 12);
    parseFails(() => parseDataType("MAP<INT>"), "Syntax error at or near '>'", 7);
    parseFails(() => parseDataType("DECIMAL(x)"), "Syntax error at or near 'x'", 8);
    parseFails(() => parseDataType("INT INT"), "Syntax error at or near 'INT'", 4);
    parseFails(() => parseDataType("INTERVAL YEAR TO MONTH"), "Year-month interval columns are not supported", 9);
    parseFails(() => parseDataType(""), "PARSE_EMPTY_STATEMENT");
  });
});

describe("parseSchema", () => {
  it("reads column lists", () => {
    same(parseSchema("produk STRING, kategori STRING"), StructOf([field("produk", StringType), field("kategori", StringType)]));
    same(parseSchema("id INT NOT NULL, ts TIMESTAMP"), StructOf([field("id", IntegerType, false), field("ts", TimestampType)]));
    same(parseSchema("`my col` string"), StructOf([field("my col", StringType)]));
    same(parseSchema("a: int, b: string"), StructOf([field("a", IntegerType), field("b", StringType)]));
  });
  it("keeps comments as metadata", () => {
    same(
      parseSchema("id BIGINT COMMENT 'the id', name STRING NOT NULL COMMENT \"who\""),
      StructOf([field("id", LongType, true, { comment: "the id" }), field("name", StringType, false, { comment: "who" })]),
    );
  });
  it("reads nested types and keyword column names", () => {
    same(
      parseSchema("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, tags ARRAY<STRING>, m MAP<STRING, INT>, date DATE"),
      StructOf([
        field("window", StructOf([field("start", TimestampType), field("end", TimestampType)])),
        field("tags", ArrayOf(StringType)),
        field("m", MapOf(StringType, IntegerType)),
        field("date", DateType),
      ]),
    );
  });
  it("accepts a whole STRUCT<...>", () => {
    same(parseSchema("struct<a:int,b:string>"), StructOf([field("a", IntegerType), field("b", StringType)]));
  });
  it("names the problem for empty or invalid schemas", () => {
    parseFails(() => parseSchema(""), "the schema string is empty", 0);
    parseFails(() => parseSchema("   "), "the schema string is empty");
    parseFails(() => parseSchema("id"), "Syntax error at or near end of input", 2);
    parseFails(() => parseSchema("id INT,"), "end of input", 7);
    parseFails(() => parseSchema("id INT name STRING"), "Syntax error at or near 'name'", 7);
    parseFails(() => parseSchema("id INTT"), 'Unsupported data type "INTT"', 3);
    parseFails(() => parseSchema("id INT COMMENT 5"), "Syntax error at or near '5'", 15);
  });
});
