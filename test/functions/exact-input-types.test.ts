/**
 * Parameters Spark checks without implicit casts, held to PySpark 4.3's answers: the functions
 * that are Spark's `ExpectsInputTypes` but not `ImplicitCastInputTypes` (soundex, str_to_map,
 * mask, the JSON path functions, parse_url, array_join's delimiter, unix_date) take a value of
 * their type or NULL only — arus cast anything to it (`soundex(1)` was '1', `mask(DATE...)`
 * masked the date's text); the time functions refuse an ARRAY or MAP (arus gave NULL); the
 * (array, element) functions refuse a NULL array each with Spark's own class; named_struct's
 * names must be STRINGs; array_union / array_intersect / array_except / arrays_overlap take two
 * ARRAYs (a NULL literal is refused: BINARY_ARRAY_DIFF_TYPES); an options argument must be a
 * `map()` of strings. And two answers arus had wrong: `concat_ws` over an ARRAY of non-strings (`array(1.0D)` gave '1', a DATE its day
 * number) and `to_date` of a BINARY (NULL).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { type ExprOutcome, exprOutcome } from "../pyspark-outcomes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

const PYSPARK: [string, ExprOutcome][] = [
  ["soundex(1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["soundex(true)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["soundex(NULL)", { json: "{}", type: "string" }],
  ["soundex('Robert')", { json: '{"r":"R163"}', type: "string" }],
  ["str_to_map(1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["str_to_map('a:1', 2)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["str_to_map('a:1', ',', 1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["str_to_map(NULL)", { json: "{}", type: "map<string,string>" }],
  ["to_base32(1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["to_base32('abc')", { json: '{"r":"MFRGG==="}', type: "string" }],
  ["mask(1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["mask(DATE'2024-03-15')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["mask(NULL, 1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["mask('abc', NULL)", { json: '{"r":"xxx"}', type: "string" }],
  ["mask('aB1', 'Y')", { json: '{"r":"xYn"}', type: "string" }],
  ["json_object_keys(1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["json_array_length(true)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["json_array_length('[1,2]')", { json: '{"r":2}', type: "int" }],
  ["get_json_object(1, '$.a')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["get_json_object('{\"a\":1}', 1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["get_json_object('{\"a\":1}', '$.a')", { json: '{"r":"1"}', type: "string" }],
  ["parse_url(1, 'HOST')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["parse_url('http://a.b/c', 2)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["try_parse_url(2.5, 'HOST')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["parse_url('http://a.b/c', 'HOST')", { json: '{"r":"a.b"}', type: "string" }],
  ["date_trunc('HOUR', 2)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["date_trunc(1, TIMESTAMP'2024-03-15 10:20:30')", { json: "{}", type: "timestamp" }],
  ["date_trunc('HOUR', '2024-03-15 10:20:30')", { json: '{"r":"2024-03-15T10:00:00.000Z"}', type: "timestamp" }],
  ["elt(DATE'2024-03-15', 'a')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["elt(array(1), 'a')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["elt('1', 'a')", { json: '{"r":"a"}', type: "string" }],
  ["unix_date('2024-03-15')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["unix_date(TIMESTAMP'2024-03-15 10:20:30')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["unix_date(DATE'2024-03-15')", { json: '{"r":19797}', type: "int" }],
  ["to_utc_timestamp(array(1, 2, 3), 'UTC')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["from_utc_timestamp(map('a', 1), 'UTC')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["to_date(array(1, 2, 3))", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["to_timestamp(map('a', 1))", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["try_to_date(array(1))", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["to_date(X'323032342d30312d3031')", { json: '{"r":"2024-01-01"}', type: "date" }],
  ["to_date(X'323032342d30312d3031', 'yyyy-MM-dd')", { json: '{"r":"2024-01-01"}', type: "date" }],
  ["concat_ws(array(1, 2, 3))", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["concat_ws(',', array(1.0D, 2.5D))", { json: '{"r":"1.0,2.5"}', type: "string" }],
  ["concat_ws(',', array(DATE'2024-01-01'), 'x')", { json: '{"r":"2024-01-01,x"}', type: "string" }],
  ["concat_ws('-', array(true, false))", { json: '{"r":"true-false"}', type: "string" }],
  ["array_join(array(1, 2, 3), 1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["array_join(NULL, 1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["array_join(array('a', NULL), ',', 1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["array_append(NULL, 1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["array_prepend(NULL, 1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["array_position(NULL, 1)", { error: "DATATYPE_MISMATCH.NULL_TYPE" }],
  ["array_remove(NULL, 1)", { error: "DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES" }],
  ["array_contains(NULL, 1)", { error: "DATATYPE_MISMATCH.NULL_TYPE" }],
  ["array_insert(NULL, 1, 1)", { error: "DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES" }],
  ["map_concat(NULL)", { error: "DATATYPE_MISMATCH.MAP_CONCAT_DIFF_TYPES" }],
  ["map_concat(map(1, 2), 'a')", { error: "DATATYPE_MISMATCH.MAP_CONCAT_DIFF_TYPES" }],
  ["named_struct(1, 2)", { error: "DATATYPE_MISMATCH.CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING" }],
  ["named_struct('a', 1, NULL, 3)", { error: "DATATYPE_MISMATCH.CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING" }],
  ["get(map('a', 1), 'a')", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["get(array(1, 2), 1)", { json: '{"r":2}', type: "int" }],
  ["to_json(array(1, 2, 3), 1)", { error: "INVALID_OPTIONS.NON_MAP_FUNCTION" }],
  ["to_json(named_struct('a', 1), map('a', 1))", { error: "INVALID_OPTIONS.NON_STRING_TYPE" }],
  ["to_json(named_struct('a', 1), 'x')", { error: "INVALID_OPTIONS.NON_MAP_FUNCTION" }],
  ["from_json('{\"a\":1}', 'a INT', NULL)", { error: "INVALID_OPTIONS.NON_MAP_FUNCTION" }],
  ["from_csv('1', 'a INT', 1)", { error: "INVALID_OPTIONS.NON_MAP_FUNCTION" }],
  ["to_csv(named_struct('a', 1), 1)", { error: "INVALID_OPTIONS.NON_MAP_FUNCTION" }],
  ["schema_of_json('{}', 1)", { error: "INVALID_OPTIONS.NON_MAP_FUNCTION" }],
  ["to_json(1)", { error: "DATATYPE_MISMATCH.INVALID_JSON_SCHEMA" }],
  // the (array, array) set functions: two ARRAYs, a NULL literal refused too
  ["array_union(1, 2)", { error: "DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES" }],
  ["array_union(array(1), 'a')", { error: "DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES" }],
  ["array_union(NULL, array(1))", { error: "DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES" }],
  ["array_union(array(1), NULL)", { error: "DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES" }],
  ["arrays_overlap(array(1), 1)", { error: "DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES" }],
  ["array_except(array(1, 2, 3), 1)", { error: "DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES" }],
  ["array_intersect(map('a', 1), array(1))", { error: "DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES" }],
  ["array_union(array(1), array(2))", { json: '{"r":[1,2]}', type: "array<int>" }],
  ["arrays_overlap(array(1, NULL), array(2))", { json: "{}", type: "boolean" }],
  // concat_ws takes ARRAYs of atomic values only; a NULL field name is refused; to_json(NULL) is NULL
  ["concat_ws(',', array(array(1)))", { error: "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE" }],
  ["concat_ws(',', array(NULL, 'a'))", { json: '{"r":"a"}', type: "string" }],
  ["named_struct(CAST(NULL AS STRING), 1)", { error: "DATATYPE_MISMATCH.UNEXPECTED_NULL" }],
  ["named_struct('a', 1, CAST(NULL AS STRING), 2)", { error: "DATATYPE_MISMATCH.UNEXPECTED_NULL" }],
  ["to_json(NULL)", { json: "{}", type: "string" }],
];

describe("parameters without implicit casts, as PySpark 4.3", () => {
  for (const [expr, expected] of PYSPARK) {
    it(expr, async () => {
      assert.deepEqual(await exprOutcome(session, expr), expected);
    });
  }
});

/** Spark 4.3's messages, word for word (the SQLSTATE and position left out). */
const MESSAGES: [string, string][] = [
  [
    "mask('abc', 2)",
    '[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "mask(abc, 2, x, n, NULL)" due to data type mismatch: The second parameter requires the "STRING" type, however "2" has the type "INT".',
  ],
  [
    "str_to_map(1)",
    '[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "str_to_map(1, ,, :)" due to data type mismatch: The first parameter requires the "STRING" type, however "1" has the type "INT".',
  ],
  [
    "try_parse_url(1, 'HOST')",
    '[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "parse_url(1, HOST)" due to data type mismatch: The first parameter requires the "STRING" type, however "1" has the type "INT".',
  ],
  [
    "date_trunc('HOUR', 2)",
    '[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "date_trunc(HOUR, 2)" due to data type mismatch: The second parameter requires the ("TIMESTAMP" or "(TIMESTAMP_LTZ(P) OR TIMESTAMP_NTZ(P) WITH P IN [7, 9])") type, however "2" has the type "INT".',
  ],
  [
    "to_timestamp(array(1, 2, 3))",
    '[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "to_timestamp(array(1, 2, 3))" due to data type mismatch: The first parameter requires the ("STRING" or "DATE" or "TIMESTAMP" or "TIMESTAMP_NTZ" or "NUMERIC") type, however "array(1, 2, 3)" has the type "ARRAY<INT>".',
  ],
  [
    "array_remove(NULL, 1)",
    '[DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES] Cannot resolve "array_remove(NULL, 1)" due to data type mismatch: Input to `array_remove` should have been "ARRAY" followed by a value with same element type, but it\'s ["VOID", "INT"].',
  ],
  [
    "array_position(NULL, 1)",
    '[DATATYPE_MISMATCH.NULL_TYPE] Cannot resolve "array_position(NULL, 1)" due to data type mismatch: Null typed values cannot be used as arguments of `array_position`.',
  ],
  [
    "map_concat(map(1, 2), NULL)",
    '[DATATYPE_MISMATCH.MAP_CONCAT_DIFF_TYPES] Cannot resolve "map_concat(map(1, 2), NULL)" due to data type mismatch: The `map_concat` should all be of type map, but it\'s ["MAP<INT, INT>", "VOID"].',
  ],
  [
    "named_struct('a', 1, 2, 3)",
    '[DATATYPE_MISMATCH.CREATE_NAMED_STRUCT_WITHOUT_FOLDABLE_STRING] Cannot resolve "named_struct(a, 1, 2, 3)" due to data type mismatch: Only foldable `STRING` expressions are allowed to appear at odd position, but they are ["2"].',
  ],
  ["to_json(array(1, 2, 3), 1)", "[INVALID_OPTIONS.NON_MAP_FUNCTION] Invalid options: Must use the `map()` function for options."],
  [
    "from_json('{\"a\":1}', 'a INT', map('a', 1))",
    '[INVALID_OPTIONS.NON_STRING_TYPE] Invalid options: A type of keys and values in `map()` must be string, but got "MAP<STRING, INT>".',
  ],
  [
    "to_json(1)",
    '[DATATYPE_MISMATCH.INVALID_JSON_SCHEMA] Cannot resolve "to_json(1)" due to data type mismatch: Input schema "INT" must be a struct, an array, a map or a variant.',
  ],
  [
    "size(1)",
    '[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "size(1)" due to data type mismatch: The first parameter requires the ("ARRAY" or "MAP") type, however "1" has the type "INT".',
  ],
  [
    "to_utc_timestamp('2024-01-01', 'x')",
    "[INVALID_TIMEZONE] The timezone: x is invalid. The timezone must be either a region-based zone ID or a zone offset. Region IDs must have the form 'area/city', such as 'America/Los_Angeles'. Zone offsets must be in the format '(+|-)HH', '(+|-)HH:mm\u2019 or '(+|-)HH:mm:ss', e.g '-08' , '+01:00' or '-13:33:33', and must be in the range from -18:00 to +18:00. 'Z' and 'UTC' are accepted as synonyms for '+00:00'.",
  ],
  [
    "named_struct('a', 1, CAST(NULL AS STRING), 2)",
    '[DATATYPE_MISMATCH.UNEXPECTED_NULL] Cannot resolve "named_struct(a, 1, CAST(NULL AS STRING), 2)" due to data type mismatch: The ["a", "CAST(NULL AS STRING)"] must not be null.',
  ],
  [
    "concat_ws(',', array(array(1)))",
    '[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] Cannot resolve "concat_ws(,, array(array(1)))" due to data type mismatch: The second parameter requires the ("ARRAY<STRING>" or "STRING") type, however "array(array(1))" has the type "ARRAY<ARRAY<INT>>".',
  ],
];

describe("the refusals' messages, as PySpark 4.3's", () => {
  for (const [expr, message] of MESSAGES) {
    it(expr, async () => {
      await assert.rejects(
        async () => session.sql(`SELECT ${expr}`).collect(),
        (e: Error) => {
          assert.equal(e.message.split("\n")[0], message);
          return true;
        },
      );
    });
  }
});
