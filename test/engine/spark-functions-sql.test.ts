/**
 * Bit functions, dayname / monthname, session functions, width_bucket, elt, find_in_set, mask,
 * quote, map_concat / map_contains_key / map_entries / map_from_arrays / map_from_entries /
 * str_to_map, json_array_length / json_object_keys / schema_of_json, array_insert, array_size
 * and the aliases lcase / ucase / curdate / date_diff / dateadd / array_agg, in SQL and as F.*.
 * Every expected value, type, error class and column name below was checked against PySpark 4.3
 * (`SELECT <expr>`, session time zone UTC): the tables were recorded from PySpark's output.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";
import { simpleString } from "../../src/types/datatypes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

/** [SQL expression, simpleString type, CAST(value AS STRING)] as PySpark 4.3 gives them. */
const VALUES: readonly (readonly [string, string, string | null])[] = [
  ["lcase('AbC')", "string", "abc"],
  ["ucase('AbC')", "string", "ABC"],
  ["lcase(null)", "string", null],
  ["~5", "int", "-6"],
  ["shiftleft(1, 3)", "int", "8"],
  ["shiftleft(cast(1 as bigint), 40)", "bigint", "1099511627776"],
  ["shiftleft(1, 33)", "int", "2"],
  ["shiftright(-16, 2)", "int", "-4"],
  ["shiftrightunsigned(-16, 2)", "int", "1073741820"],
  ["shiftrightunsigned(cast(-16 as bigint), 2)", "bigint", "4611686018427387900"],
  ["shiftleft(cast(3 as tinyint), 2)", "int", "12"],
  ["shiftleft(cast(3 as smallint), 2)", "int", "12"],
  ["shiftleft(1.5, 2)", "int", "4"],
  ["shiftleft(null, 2)", "int", null],
  ["bit_count(7)", "int", "3"],
  ["bit_count(-1)", "int", "64"],
  ["bit_count(cast(-1 as bigint))", "int", "64"],
  ["bit_count(cast(-1 as tinyint))", "int", "64"],
  ["bit_count(true)", "int", "1"],
  ["bit_count(null)", "int", null],
  ["bit_get(11, 0)", "tinyint", "1"],
  ["bit_get(11, 2)", "tinyint", "0"],
  ["getbit(cast(11 as bigint), 63)", "tinyint", "0"],
  ["bit_get(cast(5 as tinyint), 7)", "tinyint", "0"],
  ["array_size(array(1,2,3))", "int", "3"],
  ["array_size(cast(null as array<int>))", "int", null],
  ["array_size(array())", "int", "0"],
  ["cardinality(array(1,2))", "int", "2"],
  ["cardinality(map(1,2))", "int", "1"],
  ["cardinality(cast(null as array<int>))", "int", null],
  ["dayname(date'2024-03-05')", "string", "Tue"],
  ["dayname(timestamp'2024-03-10 12:00:00')", "string", "Sun"],
  ["dayname('2024-03-05')", "string", "Tue"],
  ["dayname(null)", "string", null],
  ["monthname(date'2024-03-05')", "string", "Mar"],
  ["monthname('2024-12-05')", "string", "Dec"],
  ["curdate() = current_date()", "boolean", "true"],
  ["current_database()", "string", "default"],
  ["current_schema()", "string", "default"],
  ["current_catalog()", "string", "spark_catalog"],
  ["date_diff('2024-03-10', '2024-03-01')", "int", "9"],
  ["date_diff(date'2024-03-01', date'2024-03-10')", "int", "-9"],
  ["dateadd('2024-03-01', 5)", "date", "2024-03-06"],
  ["dateadd(date'2024-03-01', -5)", "date", "2024-02-25"],
  ["width_bucket(5.3, 0.2, 10.6, 5)", "bigint", "3"],
  ["width_bucket(-2.1, 1.3, 3.4, 3)", "bigint", "0"],
  ["width_bucket(8.1, 0.0, 5.7, 4)", "bigint", "5"],
  ["width_bucket(-0.9, 5.2, 0.5, 2)", "bigint", "3"],
  ["width_bucket(5, 0, 10, 0)", "bigint", null],
  ["width_bucket(5, 0, 10, -1)", "bigint", null],
  ["width_bucket(5, 10, 10, 3)", "bigint", null],
  ["width_bucket(null, 0, 10, 3)", "bigint", null],
  ["width_bucket(5, 0, 10, 9223372036854775807)", "bigint", null],
  ["elt(1, 'a', 'b')", "string", "a"],
  ["elt(null, 'a', 'b')", "string", null],
  ["elt(2, 1, 2)", "string", "2"],
  ["elt(2, 'a', null)", "string", null],
  ["find_in_set('ab', 'abc,b,ab,c,def')", "int", "3"],
  ["find_in_set('x', 'abc,b')", "int", "0"],
  ["find_in_set('a,b', 'a,b')", "int", "0"],
  ["find_in_set('', ',a')", "int", "1"],
  ["find_in_set(null, 'a')", "int", null],
  ["mask('AbCD123-@$#')", "string", "XxXXnnn-@$#"],
  ["mask('AbCD123-@$#', 'Q')", "string", "QxQQnnn-@$#"],
  ["mask('AbCD123-@$#', 'Q', 'q')", "string", "QqQQnnn-@$#"],
  ["mask('AbCD123-@$#', 'Q', 'q', 'd')", "string", "QqQQddd-@$#"],
  ["mask('AbCD123-@$#', 'Q', 'q', 'd', 'o')", "string", "QqQQdddoooo"],
  ["mask('AbCD123-@$#', null, 'q', 'd', 'o')", "string", "AqCDdddoooo"],
  ["mask('AbCD123-@$#', null, null, null, null)", "string", "AbCD123-@$#"],
  ["mask(null)", "string", null],
  ["mask('ÄbÇ 1')", "string", "XxX n"],
  ["quote('Don\\'t')", "string", "'Don\\'t'"],
  ["quote(null)", "string", null],
  ["quote('a\\\\b')", "string", "'a\\b'"],
  ["map_concat(map(1,'a'), map(2,'b'))", "map<int,string>", "{1 -> a, 2 -> b}"],
  ["map_concat(map(1,'a'), cast(null as map<int,string>))", "map<int,string>", null],
  ["map_concat()", "map<string,string>", "{}"],
  ["map_concat(map(1,'a'), map(2L,'b'))", "map<bigint,string>", "{1 -> a, 2 -> b}"],
  ["map_contains_key(map(1,'a'), 1)", "boolean", "true"],
  ["map_contains_key(map(1,'a'), 2)", "boolean", "false"],
  ["map_contains_key(map(1,'a'), 1.0)", "boolean", "true"],
  ["map_entries(map(1,'a',2,'b'))", "array<struct<key:int,value:string>>", "[{1, a}, {2, b}]"],
  ["typeof(map_entries(map(1,'a')))", "string", "array<struct<key:int,value:string>>"],
  ["map_from_arrays(array(1,2), array('a','b'))", "map<int,string>", "{1 -> a, 2 -> b}"],
  ["map_from_arrays(cast(null as array<int>), array('a'))", "map<int,string>", null],
  ["map_from_entries(array(struct(1,'a'), struct(2,'b')))", "map<int,string>", "{1 -> a, 2 -> b}"],
  ["map_from_entries(array(struct(1,'a'), null))", "map<int,string>", null],
  ["map_from_entries(array(named_struct('k',1,'v','a')))", "map<int,string>", "{1 -> a}"],
  ["typeof(map_from_entries(array(named_struct('k',1,'v','a'))))", "string", "map<int,string>"],
  ["str_to_map('a:1,b:2,c:3')", "map<string,string>", "{a -> 1, b -> 2, c -> 3}"],
  ["str_to_map('a=1;b=2', ';', '=')", "map<string,string>", "{a -> 1, b -> 2}"],
  ["str_to_map('a')", "map<string,string>", "{a -> null}"],
  ["str_to_map('')", "map<string,string>", "{ -> null}"],
  ["str_to_map(null)", "map<string,string>", null],
  ["str_to_map('a1b2', '[0-9]', 'x')", "map<string,string>", "{a -> null, b -> null,  -> null}"],
  ['json_array_length(\'[1,2,3,{"f1":1,"f2":[5,6]},4]\')', "int", "5"],
  ["json_array_length('[]')", "int", "0"],
  ["json_array_length('[1,2')", "int", null],
  ["json_array_length('{\"a\":1}')", "int", null],
  ["json_array_length(null)", "int", null],
  ["json_array_length('')", "int", null],
  ["json_object_keys('{}')", "array<string>", "[]"],
  ['json_object_keys(\'{"key": "value"}\')', "array<string>", "[key]"],
  ['json_object_keys(\'{"f1":"abc","f2":{"f3":"a", "f4":"b"}}\')', "array<string>", "[f1, f2]"],
  ["json_object_keys('[1]')", "array<string>", null],
  ["json_object_keys('{\"a\":')", "array<string>", null],
  ["schema_of_json('[{\"col\":0}]')", "string", "ARRAY<STRUCT<col: BIGINT>>"],
  [
    'schema_of_json(\'{"a":1,"b":"x","c":[1.5],"d":null,"e":true,"f":{"g":1}}\')',
    "string",
    "STRUCT<a: BIGINT, b: STRING, c: ARRAY<DOUBLE>, d: STRING, e: BOOLEAN, f: STRUCT<g: BIGINT>>",
  ],
  ["schema_of_json('1')", "string", "BIGINT"],
  ["schema_of_json('{\"a\":12345678901}')", "string", "STRUCT<a: BIGINT>"],
  ["schema_of_json('{\"a\":1.0E10}')", "string", "STRUCT<a: DOUBLE>"],
  ['schema_of_json(\'{"b":1, "a":2}\')', "string", "STRUCT<a: BIGINT, b: BIGINT>"],
  ["array_insert(array(1,2,3), 2, 9)", "array<int>", "[1, 9, 2, 3]"],
  ["array_insert(array(1,2,3), 5, 9)", "array<int>", "[1, 2, 3, null, 9]"],
  ["array_insert(array(1,2,3), -1, 9)", "array<int>", "[1, 2, 3, 9]"],
  ["array_insert(array(1,2,3), -5, 9)", "array<int>", "[9, null, 1, 2, 3]"],
  ["array_insert(array(1,2,3), 4, 9)", "array<int>", "[1, 2, 3, 9]"],
  ["array_insert(cast(null as array<int>), 1, 9)", "array<int>", null],
  ["array_insert(array(1,2,3), 1, null)", "array<int>", "[null, 1, 2, 3]"],
];
/** [SQL expression, error class, the start of Spark's message after the class]. */
const ERRORS: readonly (readonly [string, string, string])[] = [
  [
    "shiftleft('a', 2)",
    "CAST_INVALID_INPUT",
    'The value \'a\' of the type "STRING" cannot be cast to "INT" because it is malformed. Correc',
  ],
  [
    "bit_count(1.5)",
    "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
    'Cannot resolve "bit_count(1.5)" due to data type mismatch: The first parameter requires th',
  ],
  [
    "bit_get(11, 32)",
    "INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE",
    "The value of parameter(s) `pos` in `bit_get` is invalid: expects an integer value in [0, 3",
  ],
  [
    "bit_get(11, -1)",
    "INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE",
    "The value of parameter(s) `pos` in `bit_get` is invalid: expects an integer value in [0, 3",
  ],
  [
    "bit_get(cast(5 as tinyint), 8)",
    "INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE",
    "The value of parameter(s) `pos` in `bit_get` is invalid: expects an integer value in [0, 8",
  ],
  [
    "array_size(map(1,2))",
    "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
    'Cannot resolve "array_size(map(1, 2))" due to data type mismatch: The first parameter requ',
  ],
  ["elt(3, 'a', 'b')", "INVALID_ARRAY_INDEX", "The index 3 is out of bounds. The array has 2 elements. Use the SQL function `get()` to to"],
  ["elt(0, 'a', 'b')", "INVALID_ARRAY_INDEX", "The index 0 is out of bounds. The array has 2 elements. Use the SQL function `get()` to to"],
  [
    "mask('abc', 'QQ')",
    "DATATYPE_MISMATCH.INPUT_SIZE_NOT_ONE",
    'Cannot resolve "mask(abc, QQ, x, n, NULL)" due to data type mismatch: Length of upperChar ',
  ],
  ["map_concat(map(1,'a'), map(1,'b'))", "DUPLICATED_MAP_KEY", "Duplicate map key 1 was found, please check the input data."],
  [
    "map_concat(map(1,'a'), map('x','b'))",
    "DATATYPE_MISMATCH.DATA_DIFF_TYPES",
    'Cannot resolve "map_concat(map(1, a), map(x, b))" due to data type mismatch: Input to `map',
  ],
  [
    "map_contains_key(map(1,'a'), null)",
    "DATATYPE_MISMATCH.NULL_TYPE",
    'Cannot resolve "map_contains_key(map(1, a), NULL)" due to data type mismatch: Null typed v',
  ],
  [
    "map_contains_key(map(1,'a'), 'x')",
    "DATATYPE_MISMATCH.MAP_FUNCTION_DIFF_TYPES",
    'Cannot resolve "map_contains_key(map(1, a), x)" due to data type mismatch: Input to `map_c',
  ],
  [
    "map_from_arrays(array(1,2), array('a'))",
    "_LEGACY_ERROR_TEMP_2128",
    "The key array and value array of MapData must have the same length.",
  ],
  ["map_from_arrays(array(1,null), array('a','b'))", "NULL_MAP_KEY", "Cannot use null as map key."],
  ["map_from_arrays(array(1,1), array('a','b'))", "DUPLICATED_MAP_KEY", "Duplicate map key 1 was found, please check the input data."],
  ["str_to_map('a:1,a:2')", "DUPLICATED_MAP_KEY", "Duplicate map key a was found, please check the input data."],
  [
    "array_insert(array(1,2,3), 0, 9)",
    "INVALID_INDEX_OF_ZERO",
    "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1",
  ],
  [
    "array_insert(array(1,2,3), null, 9)",
    "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
    'Cannot resolve "array_insert(array(1, 2, 3), NULL, 9)" due to data type mismatch: The seco',
  ],
  [
    "array_insert(array(1,2,3), 1, 1.5)",
    "DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES",
    'Cannot resolve "array_insert(array(1, 2, 3), 1, 1.5)" due to data type mismatch: Input to ',
  ],
  [
    "array_insert(array(1,2,3), 1, 'x')",
    "DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES",
    'Cannot resolve "array_insert(array(1, 2, 3), 1, x)" due to data type mismatch: Input to `a',
  ],
];

async function typeAndText(expr: string): Promise<[string, unknown]> {
  const df = session.sql(`SELECT ${expr} AS v`);
  const rows = await session.sql(`SELECT CAST((${expr}) AS STRING) AS v`).collect();
  return [simpleString(df.schema.fields[0]!.type), rows[0]!.v ?? null];
}

describe("new SQL functions agree with PySpark 4.3", () => {
  for (const [expr, type, text] of VALUES) {
    it(expr, async () => {
      assert.deepEqual(await typeAndText(expr), [type, text]);
    });
  }
  for (const [expr, errorClass, message] of ERRORS) {
    it(`${expr} raises ${errorClass}`, async () => {
      await assert.rejects(typeAndText(expr), (e: Error & { errorClass?: string }) => {
        assert.equal(e.errorClass, errorClass);
        assert.ok(e.message.includes(message), `${e.message}\n  should include\n${message}`);
        return true;
      });
    });
  }
});

describe("column names", () => {
  it("are Spark's, defaults and canonical names included", () => {
    const names = (expr: string) => session.sql(`SELECT ${expr}`).columns[0];
    assert.equal(names("~5"), "~5");
    assert.equal(names("mask('ab')"), "mask(ab, X, x, n, NULL)");
    assert.equal(names("mask('ab', 'Q', 'q')"), "mask(ab, Q, q, n, NULL)");
    assert.equal(names("str_to_map('a:1')"), "str_to_map(a:1, ,, :)");
    assert.equal(names("str_to_map('a=1', ';')"), "str_to_map(a=1, ;, :)");
    assert.equal(names("current_database()"), "current_schema()");
    assert.equal(names("curdate() = current_date()"), "(current_date() = current_date())");
    assert.equal(names("dateadd('2024-03-01', 5)"), "date_add(2024-03-01, 5)");
    assert.equal(names("lcase('A')"), "lcase(A)");
    assert.equal(names("shiftrightunsigned(-16, 2)"), "shiftrightunsigned(-16, 2)");
  });
});

describe("session functions", () => {
  it("current_user, user and session_user agree; version is a string", async () => {
    const [row] = await session.sql("SELECT current_user() AS a, user() AS b, session_user() AS c, version() AS v").collect();
    assert.equal(row!.a, row!.b);
    assert.equal(row!.a, row!.c);
    assert.equal(typeof row!.a, "string");
    assert.equal(row!.v, "4.0.0-arus");
  });
});
/** [F call, its column name, simpleString type, value as text], from PySpark 4.3 on the same row. */
const F_CALLS: readonly (readonly [string, string, string, string | null])[] = [
  ['bround("d", 1)', "bround(d, 1)", "double", "2.3"],
  ['cardinality("arr")', "cardinality(arr)", "int", "3"],
  ['ceiling("d")', "ceiling(d)", "bigint", "3"],
  ['contains("s", F.lit("b"))', "contains(s, b)", "boolean", "true"],
  ['day("dt")', "day(dt)", "int", "17"],
  ['decode(F.encode("s", "UTF-8"), "UTF-8")', "decode(encode(s, UTF-8), UTF-8)", "string", "abc"],
  ['endswith("s", F.lit("c"))', "endswith(s, c)", "boolean", "true"],
  ['startswith("s", F.lit("a"))', "startswith(s, a)", "boolean", "true"],
  ['exp("i")', "EXP(i)", "double", "20.085536923187668"],
  ['get("arr", 1)', "get(arr, 1)", "int", "2"],
  ['ifnull("n", "i")', "ifnull(n, i)", "int", "3"],
  ['nvl("n", "i")', "nvl(n, i)", "int", "3"],
  ['nullif("i", F.lit(2))', "nullif(i, 2)", "int", "3"],
  ['initcap("s")', "initcap(s)", "string", "Abc"],
  ['isnotnull("n")', "(n IS NOT NULL)", "boolean", "false"],
  ['like("s", F.lit("a%"))', "s LIKE a%", "boolean", "true"],
  ['ln("i")', "ln(i)", "double", "1.0986122886681096"],
  ['log10("i")', "LOG10(i)", "double", "0.47712125471966244"],
  ['named_struct(F.lit("x"), "i")', "named_struct(x, i)", "struct<x:int>", "{3}"],
  ['positive("i")', "(+ i)", "int", "3"],
  ['pmod("i", 3)', "pmod(i, 3)", "int", "0"],
  ['power("i", 2)', "POWER(i, 2)", "double", "9.0"],
  ['quarter("dt")', "quarter(dt)", "int", "2"],
  ['regexp("s", F.lit("b+"))', "REGEXP(s, b+)", "boolean", "true"],
  ['rlike("s", F.lit("b+"))', "RLIKE(s, b+)", "boolean", "true"],
  ['replace("s", F.lit("b"), F.lit("X"))', "replace(s, b, X)", "string", "aXc"],
  ['reverse("s")', "reverse(s)", "string", "cba"],
  ['sha("s")', "sha(s)", "string", "a9993e364706816aba3e25717850c26c9cd0d89d"],
  ['substr("s", F.lit(2), F.lit(1))', "substr(s, 2, 1)", "string", "b"],
  ['timestamp_micros("i")', "timestamp_micros(i)", "timestamp", "1970-01-01 00:00:00.000003"],
  ['try_element_at("arr", F.lit(5))', "try_element_at(arr, 5)", "int", null],
  ['lcase("s")', "lcase(s)", "string", "abc"],
  ['ucase("s")', "ucase(s)", "string", "ABC"],
  ['bitwise_not("i")', "~i", "int", "-4"],
  ['bitwiseNOT("i")', "~i", "int", "-4"],
  ['shiftleft("i", 2)', "shiftleft(i, 2)", "int", "12"],
  ['shiftRight("i", 1)', "shiftright(i, 1)", "int", "1"],
  ['shiftrightunsigned("i", 1)', "shiftrightunsigned(i, 1)", "int", "1"],
  ['bit_count("i")', "bit_count(i)", "int", "2"],
  ['dayname("dt")', "dayname(dt)", "string", "Fri"],
  ['monthname("dt")', "monthname(dt)", "string", "May"],
  ['date_diff("dt", "dt")', "date_diff(dt, dt)", "int", "0"],
  ['dateadd("dt", 3)', "date_add(dt, 3)", "date", "2024-05-20"],
  ["current_database()", "current_schema()", "string", "default"],
  ["current_schema()", "current_schema()", "string", "default"],
  ["current_catalog()", "current_catalog()", "string", "spark_catalog"],
  ['width_bucket("d", F.lit(0), F.lit(10), 4)', "width_bucket(d, 0, 10, 4)", "bigint", "1"],
  ['elt(F.lit(1), "s", "s")', "elt(1, s, s)", "string", "abc"],
  ['find_in_set(F.lit("b"), F.lit("a,b"))', "find_in_set(b, a,b)", "int", "2"],
  ['mask("s")', "mask(s, X, x, n, NULL)", "string", "xxx"],
  ['quote("s")', "quote(s)", "string", "'abc'"],
  ['map_contains_key("m", 1)', "map_contains_key(m, 1)", "boolean", "true"],
  ['map_entries("m")', "map_entries(m)", "array<struct<key:int,value:string>>", "[{1, x}]"],
  ['map_from_arrays("arr", "arr")', "map_from_arrays(arr, arr)", "map<int,int>", "{1 -> 1, 2 -> 2, 3 -> 3}"],
  ['map_from_entries(F.array(F.struct("i", "s")))', "map_from_entries(array(struct(i, s)))", "map<int,string>", "{3 -> abc}"],
  ['str_to_map(F.lit("a:1"))', "str_to_map(a:1, ,, :)", "map<string,string>", "{a -> 1}"],
  ['str_to_map(F.lit("a=1"), F.lit(","), F.lit("="))', "str_to_map(a=1, ,, =)", "map<string,string>", "{a -> 1}"],
  ['array_insert("arr", 1, 9)', "array_insert(arr, 1, 9)", "array<int>", "[9, 1, 2, 3]"],
  ['array_size("arr")', "array_size(arr)", "int", "3"],
  ['json_array_length(F.lit("[1,2]"))', "json_array_length([1,2])", "int", "2"],
  ["json_object_keys(F.lit('{\"a\":1}'))", 'json_object_keys({"a":1})', "array<string>", "[a]"],
  ["schema_of_json('{\"a\":1}')", 'schema_of_json({"a":1})', "string", "STRUCT<a: BIGINT>"],
];

describe("F.* forms agree with PySpark 4.3", () => {
  const df = session.sql(
    "SELECT 'abc' AS s, 3 AS i, 2.345D AS d, date'2024-05-17' AS dt, array(1,2,3) AS arr, map(1,'x') AS m, CAST(NULL AS INT) AS n",
  );
  for (const [call, name, type, text] of F_CALLS) {
    it(`F.${call}`, async () => {
      const column = new Function("F", `return F.${call}`)(F);
      const out = df.select(column);
      assert.equal(out.columns[0], name);
      assert.equal(simpleString(out.schema.fields[0]!.type), type);
      const [row] = await out.selectExpr(`CAST(\`${name}\` AS STRING) AS v`).collect();
      assert.equal(row!.v ?? null, text);
    });
  }
  it("F.negate / F.negative negate; F.map_concat of a map with itself repeats its keys", async () => {
    const [row] = await df.select(F.negate("i").alias("a"), F.negative("d").alias("b")).collect();
    assert.deepEqual([row!.a, row!.b], [-3, -2.345]);
    await assert.rejects(df.select(F.map_concat("m", "m")).collect(), /DUPLICATED_MAP_KEY/);
  });
  it("F.array_agg collects a group's values as collect_list", async () => {
    const rows = await session
      .sql("SELECT * FROM VALUES (1, 'a'), (1, 'b'), (2, 'c') AS t(k, v)")
      .groupBy("k")
      .agg(F.array_agg("v"))
      .orderBy("k")
      .collect();
    assert.deepEqual(
      rows.map((r) => r["collect_list(v)"]),
      [["a", "b"], ["c"]],
    );
  });
});

/** make_timestamp* and timestampadd / timestampdiff: [expression, type, value, Spark's column name for the same call]. */
const DATE_TIME_VALUES: readonly (readonly [string, string, string | null, string])[] = [
  ["make_timestamp(2024, 3, 5, 12, 30, 45.5)", "timestamp", "2024-03-05 12:30:45.5", "make_timestamp(2024, 3, 5, 12, 30, 45.5)"],
  [
    "make_timestamp(2024, 3, 5, 12, 30, 45.5, 'America/New_York')",
    "timestamp",
    "2024-03-05 17:30:45.5",
    "make_timestamp(2024, 3, 5, 12, 30, 45.5, America/New_York)",
  ],
  ["make_timestamp(2024, 3, 5, 12, 30, 60)", "timestamp", "2024-03-05 12:31:00", "make_timestamp(2024, 3, 5, 12, 30, 60)"],
  ["make_timestamp(2024, 3, 5, 12, 30, null)", "timestamp", null, "make_timestamp(2024, 3, 5, 12, 30, NULL)"],
  [
    "make_timestamp(2024, 3, 5, 12, 30, 1.1234567)",
    "timestamp",
    "2024-03-05 12:30:01.123457",
    "make_timestamp(2024, 3, 5, 12, 30, 1.1234567)",
  ],
  ["make_timestamp_ltz(2024, 3, 5, 12, 30, 45.5)", "timestamp", "2024-03-05 12:30:45.5", "make_timestamp_ltz(2024, 3, 5, 12, 30, 45.5)"],
  [
    "make_timestamp_ltz(2024, 3, 5, 12, 30, 45.5, 'UTC')",
    "timestamp",
    "2024-03-05 12:30:45.5",
    "make_timestamp_ltz(2024, 3, 5, 12, 30, 45.5, UTC)",
  ],
  ["try_make_timestamp(2024, 13, 5, 12, 30, 45.5)", "timestamp", null, "try_make_timestamp(2024, 13, 5, 12, 30, 45.5)"],
  ["try_make_timestamp(2024, 3, 5, 12, 30, 45.5)", "timestamp", "2024-03-05 12:30:45.5", "try_make_timestamp(2024, 3, 5, 12, 30, 45.5)"],
  [
    "timestampadd(HOUR, 5, timestamp'2024-03-01 00:00:00')",
    "timestamp",
    "2024-03-01 05:00:00",
    "timestampadd(HOUR, 5, TIMESTAMP '2024-03-01 00:00:00')",
  ],
  [
    "timestampadd(MONTH, 1, timestamp'2024-01-31 00:00:00')",
    "timestamp",
    "2024-02-29 00:00:00",
    "timestampadd(MONTH, 1, TIMESTAMP '2024-01-31 00:00:00')",
  ],
  [
    "timestampadd(MICROSECOND, 5, timestamp'2024-01-31 00:00:00')",
    "timestamp",
    "2024-01-31 00:00:00.000005",
    "timestampadd(MICROSECOND, 5, TIMESTAMP '2024-01-31 00:00:00')",
  ],
  [
    "timestampdiff(DAY, timestamp'2024-03-01 00:00:00', timestamp'2024-03-10 12:00:00')",
    "bigint",
    "9",
    "timestampdiff(DAY, TIMESTAMP '2024-03-01 00:00:00', TIMESTAMP '2024-03-10 12:00:00')",
  ],
  [
    "timestampdiff(YEAR, timestamp'2020-03-01 00:00:00', timestamp'2024-02-29 00:00:00')",
    "bigint",
    "3",
    "timestampdiff(YEAR, TIMESTAMP '2020-03-01 00:00:00', TIMESTAMP '2024-02-29 00:00:00')",
  ],
  [
    "timestampdiff(SECOND, timestamp'2024-03-10 12:00:00', timestamp'2024-03-01 00:00:00')",
    "bigint",
    "-820800",
    "timestampdiff(SECOND, TIMESTAMP '2024-03-10 12:00:00', TIMESTAMP '2024-03-01 00:00:00')",
  ],
  [
    "datediff(DAY, timestamp'2024-03-01 00:00:00', timestamp'2024-03-10 12:00:00')",
    "bigint",
    "9",
    "timestampdiff(DAY, TIMESTAMP '2024-03-01 00:00:00', TIMESTAMP '2024-03-10 12:00:00')",
  ],
];
const DATE_TIME_ERRORS: readonly (readonly [string, string, string])[] = [
  [
    "make_timestamp(2024, 13, 5, 12, 30, 45.5)",
    "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION",
    "Invalid value for MonthOfYear (valid values 1 - 12): 13.",
  ],
  [
    "make_timestamp(2024, 3, 5, 12, 30, 61)",
    "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION",
    "Invalid value for SecondOfMinute (valid values 0 - 59): 61.",
  ],
];

describe("make_timestamp, timestampadd and timestampdiff agree with PySpark 4.3", () => {
  for (const [expr, type, text, sparkName] of DATE_TIME_VALUES) {
    it(expr, async () => {
      assert.deepEqual(await typeAndText(expr), [type, text]);
      // Spark prints typed literals as TIMESTAMP '...' where arus shows the cast: compare the rest
      const name = session.sql(`SELECT ${expr}`).columns[0]!.replace(/CAST\(([^)]*) AS TIMESTAMP\)/g, "TIMESTAMP '$1'");
      assert.equal(name, sparkName);
    });
  }
  for (const [expr, errorClass, message] of DATE_TIME_ERRORS) {
    it(`${expr} raises ${errorClass}`, async () => {
      await assert.rejects(typeAndText(expr), (e: Error & { errorClass?: string }) => {
        assert.equal(e.errorClass, errorClass);
        assert.ok(e.message.includes(message), `${e.message}\n  should include\n${message}`);
        return true;
      });
    });
  }
  it("F.timestamp_add / F.timestamp_diff / F.make_timestamp", async () => {
    const df = session.sql("SELECT timestamp'2024-01-31 10:00:00' AS ts, timestamp'2024-03-30 09:00:00' AS te, 2 AS q");
    const out = df.select(
      F.timestamp_add("MONTH", "q", "ts"),
      F.timestamp_diff("MONTH", "ts", "te"),
      F.make_timestamp(F.lit(2024), F.lit(2), F.lit(29), F.lit(23), F.lit(59), F.lit(59.5)),
    );
    assert.deepEqual(out.columns, [
      "timestampadd(MONTH, q, ts)",
      "timestampdiff(MONTH, ts, te)",
      "make_timestamp(2024, 2, 29, 23, 59, 59.5)",
    ]);
    const [row] = await out
      .selectExpr("CAST(`timestampadd(MONTH, q, ts)` AS STRING) AS a", "`timestampdiff(MONTH, ts, te)` AS b")
      .collect();
    assert.deepEqual([row!.a, row!.b], ["2024-03-31 10:00:00", 1]);
  });
});

/** parse_url, hmac, base32, UTF-8 validity, jaro_winkler_similarity, sentences, regexp_instr, to_binary: [expression, type, value]. */
const TEXT_VALUES: readonly (readonly [string, string, string | null])[] = [
  ["parse_url('http://spark.apache.org/path?query=1', 'HOST')", "string", "spark.apache.org"],
  ["parse_url('http://spark.apache.org/path?query=1', 'PATH')", "string", "/path"],
  ["parse_url('http://spark.apache.org/path?query=1', 'QUERY')", "string", "query=1"],
  ["parse_url('http://spark.apache.org/path?query=1', 'QUERY', 'query')", "string", "1"],
  ["parse_url('http://spark.apache.org/path?query=1&b=2', 'QUERY', 'b')", "string", "2"],
  ["parse_url('http://spark.apache.org/path?query=1', 'QUERY', 'zz')", "string", null],
  ["parse_url('http://user:pw@spark.apache.org:8080/path/a.html?query=1#frag', 'REF')", "string", "frag"],
  ["parse_url('http://user:pw@spark.apache.org:8080/path/a.html?query=1#frag', 'PROTOCOL')", "string", "http"],
  ["parse_url('http://user:pw@spark.apache.org:8080/path/a.html?query=1#frag', 'FILE')", "string", "/path/a.html?query=1"],
  ["parse_url('http://user:pw@spark.apache.org:8080/path/a.html?query=1#frag', 'AUTHORITY')", "string", "user:pw@spark.apache.org:8080"],
  ["parse_url('http://user:pw@spark.apache.org:8080/path/a.html?query=1#frag', 'USERINFO')", "string", "user:pw"],
  ["parse_url('http://user:pw@spark.apache.org:8080/path/a.html?query=1#frag', 'HOST')", "string", "spark.apache.org"],
  ["parse_url('http://spark.apache.org/path', 'QUERY')", "string", null],
  ["parse_url('http://spark.apache.org/path', 'host')", "string", null],
  ["parse_url('http://spark.apache.org/path', 'XYZ')", "string", null],
  ["try_parse_url('inva lid://spark.apache.org/path', 'HOST')", "string", null],
  ["parse_url(null, 'HOST')", "string", null],
  ["parse_url('https://a.b/c?x=1%202', 'QUERY', 'x')", "string", "1%202"],
  ["parse_url('file:///tmp/a.txt', 'PATH')", "string", "/tmp/a.txt"],
  ["parse_url('http://a.b', 'PATH')", "string", ""],
  ["parse_url('mailto:someone@x.com', 'PATH')", "string", null],
  ["to_binary('abc')", "binary", "\n�"],
  ["to_binary('abc', 'utf-8')", "binary", "abc"],
  ["to_binary('616263', 'hex')", "binary", "abc"],
  ["to_binary('YWJj', 'base64')", "binary", "abc"],
  ["to_binary('abc', 'hex')", "binary", "\n�"],
  ["try_to_binary('abc', 'hex')", "binary", "\n�"],
  ["to_binary(null, 'hex')", "binary", null],
  ["to_binary('6', 'hex')", "binary", "\u0006"],
  ["hex(hmac('Spark', 'key'))", "string", "CEBEF3ACA26F4F452D21055D0545D4BAE3C740A5A4BED3BC15B808F2ACB20471"],
  ["hex(hmac('Spark', 'key', 'SHA-256'))", "string", "CEBEF3ACA26F4F452D21055D0545D4BAE3C740A5A4BED3BC15B808F2ACB20471"],
  [
    "hex(hmac('Spark', 'key', 'SHA-512'))",
    "string",
    "F90520FADE43239144AB2A61E50B52E8F496C2E7EF9DE10B402632EB11027765B70A7ADA5CDF00E98F6AF7B34B12791944D92D255757F9EA714B2F74C40D929D",
  ],
  ["hex(hmac('Spark', 'key', 'SHA-1'))", "string", "B87C14B64E6191499C4E90BE56F979D3DDF705A6"],
  ["hex(hmac('Spark', 'key', 'MD5'))", "string", "95C048D563F1FB6C2470968B553D0C42"],
  ["hmac(null, 'key')", "binary", null],
  ["is_valid_utf8('abc')", "boolean", "true"],
  ["is_valid_utf8(x'61FF')", "boolean", "false"],
  ["validate_utf8('abc')", "string", "abc"],
  ["try_validate_utf8(x'61FF')", "string", null],
  ["is_valid_utf8(null)", "boolean", null],
  ["jaro_winkler_similarity('MARTHA', 'MARHTA')", "double", "0.9611111111111111"],
  ["jaro_winkler_similarity('DWAYNE', 'DUANE')", "double", "0.8400000000000001"],
  ["jaro_winkler_similarity('', '')", "double", "1.0"],
  ["jaro_winkler_similarity('abc', '')", "double", "0.0"],
  ["jaro_winkler_similarity('abc', 'abc')", "double", "1.0"],
  ["jaro_winkler_similarity(null, 'a')", "double", null],
  ["sentences('Hi there! Good morning.')", "array<array<string>>", "[[Hi, there], [Good, morning]]"],
  ["sentences('Hi there! Good morning.', 'en', 'US')", "array<array<string>>", "[[Hi, there], [Good, morning]]"],
  ["sentences('')", "array<array<string>>", "[]"],
  ["sentences(null)", "array<array<string>>", null],
  [
    "sentences('This is a test. Another one? Yes, sir: ok')",
    "array<array<string>>",
    "[[This, is, a, test], [Another, one], [Yes, sir, ok]]",
  ],
  ["regexp_instr('1a 2b 14m', '\\\\d+')", "int", "1"],
  ["regexp_instr('1a 2b 14m', '\\\\d+(a|b|m)')", "int", "1"],
  ["regexp_instr('1a 2b 14m', '\\\\d+(a|b|m)', 1)", "int", "1"],
  ["regexp_instr('abc', 'x')", "int", "0"],
  ["regexp_instr(null, 'a')", "int", null],
  ["to_base32('abc')", "string", "MFRGG==="],
  ["from_base32('MFRGG===')", "binary", "abc"],
];
const TEXT_ERRORS: readonly (readonly [string, string, string])[] = [
  [
    "parse_url('not a url', 'HOST')",
    "INVALID_URL",
    "The url is invalid: not a url. Use `try_parse_url` to tolerate invalid URL and return NULL",
  ],
  [
    "parse_url('inva lid://spark.apache.org/path', 'HOST')",
    "INVALID_URL",
    "The url is invalid: inva lid://spark.apache.org/path. Use `try_parse_url` to tolerate inva",
  ],
  [
    "to_binary('61', 'xyz')",
    "DATATYPE_MISMATCH.INVALID_ARG_VALUE",
    'Cannot resolve "to_binary(61, xyz)" due to data type mismatch: The fmt value must to be a ',
  ],
  ["validate_utf8(x'61FF')", "INVALID_UTF8_STRING", "Invalid UTF8 byte sequence found in string: \\x61\\xFF."],
  [
    "regexp_instr('1a 2b 14m', '[')",
    "INVALID_PARAMETER_VALUE.PATTERN",
    "The value of parameter(s) `regexp` in `regexp_instr` is invalid: '['.",
  ],
];

describe("URL, digest, encoding and text functions agree with PySpark 4.3", () => {
  for (const [expr, type, text] of TEXT_VALUES) {
    it(expr, async () => {
      assert.deepEqual(await typeAndText(expr), [type, text]);
    });
  }
  for (const [expr, errorClass, message] of TEXT_ERRORS) {
    it(`${expr} raises ${errorClass}`, async () => {
      await assert.rejects(typeAndText(expr), (e: Error & { errorClass?: string }) => {
        assert.equal(e.errorClass, errorClass);
        assert.ok(e.message.includes(message), `${e.message}\n  should include\n${message}`);
        return true;
      });
    });
  }
  it("column names show Spark's defaults", () => {
    const name = (expr: string) => session.sql(`SELECT ${expr}`).columns[0];
    assert.equal(name("hmac('a', 'b')"), "hmac(a, b, SHA-256)");
    assert.equal(name("regexp_instr('a', 'b')"), "regexp_instr(a, b, 0)");
    assert.equal(name("sentences('a')"), "sentences(a, , )");
    assert.equal(name("to_binary('61')"), "to_binary(61)");
  });
  it("F forms", async () => {
    const df = session.sql("SELECT 'http://u@h.org:81/p?q=1#f' AS url, 'MARTHA' AS a, 'MARHTA' AS b");
    const [row] = await df
      .select(
        F.parse_url("url", F.lit("HOST")).alias("host"),
        F.parse_url("url", F.lit("QUERY"), F.lit("q")).alias("q"),
        F.jaro_winkler_similarity("a", "b").alias("jw"),
        F.regexp_instr("a", F.lit("T")).alias("at"),
        F.to_base32("a").alias("b32"),
        F.hex(F.hmac(F.lit("Spark"), F.lit("key"))).alias("mac"),
      )
      .collect();
    assert.deepEqual(row, {
      host: "h.org",
      q: "1",
      jw: 0.9611111111111111,
      at: 4,
      b32: "JVAVEVCIIE======",
      mac: "CEBEF3ACA26F4F452D21055D0545D4BAE3C740A5A4BED3BC15B808F2ACB20471",
    });
  });
});
