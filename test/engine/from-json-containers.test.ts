/**
 * from_json with an ARRAY or MAP schema (Spark reads `from_json(s, 'array<int>')` and
 * `from_json(s, 'map<string,int>')`; arus refused them until session 28). The table's answers are
 * PySpark 4.3's (`SELECT <expr>` as to_json of a one-field struct, and typeof); the FAILFAST rows
 * give Spark's error class. Then the DataFrame API's schema spellings and the bytes path (a
 * UTF-8 vector, as a Kafka value cast to STRING gives) against the string path.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { functions as F, Session } from "../../src/index.js";
import { ArrayOf, IntegerType, MapOf, StringType } from "../../src/types/datatypes.js";
import { type ExprOutcome, exprOutcome } from "../pyspark-outcomes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

const PYSPARK: [string, ExprOutcome][] = [
  ["from_json('{\"a\":1} x', 'a int')", { json: '{"r":{"a":1}}', type: "struct<a:int>" }],
  ["from_json('{\"a\":1} x', 'a int', map('mode','FAILFAST'))", { json: '{"r":{"a":1}}', type: "struct<a:int>" }],
  ["from_json('[1,2,3]', 'array<int>')", { json: '{"r":[1,2,3]}', type: "array<int>" }],
  ["from_json('[1,\"x\",3]', 'array<int>')", { json: "{}", type: "array<int>" }],
  ["from_json('{\"a\":1}', 'array<int>')", { json: "{}", type: "array<int>" }],
  ["from_json('[{\"a\":1},{\"a\":2}]', 'array<struct<a:int>>')", { json: '{"r":[{"a":1},{"a":2}]}', type: "array<struct<a:int>>" }],
  ["from_json('{\"a\":1}', 'array<struct<a:int>>')", { json: '{"r":[{"a":1}]}', type: "array<struct<a:int>>" }],
  ["from_json('[{\"a\":1},2]', 'array<struct<a:int>>')", { json: "{}", type: "array<struct<a:int>>" }],
  ["from_json('[]', 'array<int>')", { json: '{"r":[]}', type: "array<int>" }],
  ["from_json('null', 'array<int>')", { json: "{}", type: "array<int>" }],
  ["from_json('', 'array<int>')", { json: "{}", type: "array<int>" }],
  ["from_json('garbage', 'array<int>')", { json: "{}", type: "array<int>" }],
  ["from_json('[1,2', 'array<int>')", { json: "{}", type: "array<int>" }],
  ["from_json('[[1,2],[3]]', 'array<array<int>>')", { json: '{"r":[[1,2],[3]]}', type: "array<array<int>>" }],
  ["from_json('[1.5, 2]', 'array<double>')", { json: '{"r":[1.5,2.0]}', type: "array<double>" }],
  ["from_json('[\"a\", null, \"c\"]', 'array<string>')", { json: '{"r":["a",null,"c"]}', type: "array<string>" }],
  ["from_json('[1, null]', 'array<int>')", { json: '{"r":[1,null]}', type: "array<int>" }],
  ["from_json('{\"a\":1,\"b\":2}', 'map<string,int>')", { json: '{"r":{"a":1,"b":2}}', type: "map<string,int>" }],
  ['from_json(\'{"a":1,"b":"x"}\', \'map<string,int>\')', { json: "{}", type: "map<string,int>" }],
  ["from_json('{}', 'map<string,int>')", { json: '{"r":{}}', type: "map<string,int>" }],
  ["from_json('[1]', 'map<string,int>')", { json: "{}", type: "map<string,int>" }],
  [
    'from_json(\'{"a":{"x":1},"b":{"x":2}}\', \'map<string,struct<x:int>>\')',
    { json: '{"r":{"a":{"x":1},"b":{"x":2}}}', type: "map<string,struct<x:int>>" },
  ],
  ["from_json('{\"a\":[1,2]}', 'map<string,array<int>>')", { json: '{"r":{"a":[1,2]}}', type: "map<string,array<int>>" }],
  ["from_json('{\"1\":1}', 'map<int,int>')", { error: "DATATYPE_MISMATCH.INVALID_JSON_MAP_KEY_TYPE" }],
  ["from_json('garbage', 'map<string,int>')", { json: "{}", type: "map<string,int>" }],
  ["from_json('{\"a\":1}', 'ARRAY<INT>')", { json: "{}", type: "array<int>" }],
  ["from_json('[1,2]', 'array<bigint>')", { json: '{"r":[1,2]}', type: "array<bigint>" }],
  ["from_json('[true,false]', 'array<boolean>')", { json: '{"r":[true,false]}', type: "array<boolean>" }],
  ["from_json('[\"2024-01-01\"]', 'array<date>')", { json: '{"r":["2024-01-01"]}', type: "array<date>" }],
  ["from_json('[\"2024-01-01 10:00:00\"]', 'array<timestamp>')", { json: '{"r":["2024-01-01T10:00:00.000Z"]}', type: "array<timestamp>" }],
  ["from_json('[1,2]', 'array<int>', map('mode','FAILFAST'))", { json: '{"r":[1,2]}', type: "array<int>" }],
  ["from_json(CAST(NULL AS STRING), 'array<int>')", { json: "{}", type: "array<int>" }],
  ["from_json('  [1, 2]  ', 'array<int>')", { json: '{"r":[1,2]}', type: "array<int>" }],
  ["from_json('[1, 2] x', 'array<int>')", { json: '{"r":[1,2]}', type: "array<int>" }],
  [
    'from_json(\'[{"a":1,"b":"q"}]\', \'array<struct<a:int,b:string>>\')',
    { json: '{"r":[{"a":1,"b":"q"}]}', type: "array<struct<a:int,b:string>>" },
  ],
  ["from_json('{\"a\":1}', 'struct<a:int>')", { json: '{"r":{"a":1}}', type: "struct<a:int>" }],
  ["from_json('[{\"a\":1}]', 'struct<a:int>')", { json: '{"r":{}}', type: "struct<a:int>" }],
  ["from_json('\"abc\"', 'array<string>')", { json: "{}", type: "array<string>" }],
  ["from_json('1', 'array<int>')", { json: "{}", type: "array<int>" }],
  ["from_json('[9999999999]', 'array<int>')", { json: "{}", type: "array<int>" }],
  ["from_json('{\"k\":null}', 'map<string,int>')", { json: '{"r":{"k":null}}', type: "map<string,int>" }],
  ["from_json('{\"v\":[1,2,3]}', 'v array<int>')", { json: '{"r":{"v":[1,2,3]}}', type: "struct<v:array<int>>" }],
  ["from_json('{\"v\":[1,\"x\",3]}', 'v array<int>')", { json: '{"r":{}}', type: "struct<v:array<int>>" }],
  ['from_json(\'{"v":[1,"x",3], "w": 5}\', \'v array<int>, w int\')', { json: '{"r":{"w":5}}', type: "struct<v:array<int>,w:int>" }],
  ['from_json(\'{"v":{"a":1,"b":2}}\', \'v map<string,int>\')', { json: '{"r":{"v":{"a":1,"b":2}}}', type: "struct<v:map<string,int>>" }],
  [
    'from_json(\'{"v":{"a":1,"b":"x"}, "w": 5}\', \'v map<string,int>, w int\')',
    { json: '{"r":{"w":5}}', type: "struct<v:map<string,int>,w:int>" },
  ],
  ["from_json('{\"v\":[9999999999], \"w\": 5}', 'v array<int>, w int')", { json: '{"r":{"w":5}}', type: "struct<v:array<int>,w:int>" }],
  ["from_json('{\"v\":{\"a\":1}}', 'v array<struct<a:int>>')", { json: '{"r":{}}', type: "struct<v:array<struct<a:int>>>" }],
  ["from_json('{\"v\":{\"a\":1}}', 'v array<int>')", { json: '{"r":{}}', type: "struct<v:array<int>>" }],
  ["from_json('{\"v\":5, \"w\": 5}', 'v array<int>, w int')", { json: '{"r":{"w":5}}', type: "struct<v:array<int>,w:int>" }],
  ["from_json('[]', 'a int')", { json: '{"r":{}}', type: "struct<a:int>" }],
  ["from_json('[1]', 'a int')", { json: '{"r":{}}', type: "struct<a:int>" }],
  ["from_json('[{\"a\":1},{\"a\":2}]', 'a int')", { json: '{"r":{}}', type: "struct<a:int>" }],
  ["from_json('{\"v\":[1, null]}', 'v array<int>')", { json: '{"r":{"v":[1,null]}}', type: "struct<v:array<int>>" }],
  ["from_json('{\"v\":{\"k\":null}}', 'v map<string,int>')", { json: '{"r":{"v":{"k":null}}}', type: "struct<v:map<string,int>>" }],
  ["from_json('{\"v\":[[1,2],[3]]}', 'v array<array<int>>')", { json: '{"r":{"v":[[1,2],[3]]}}', type: "struct<v:array<array<int>>>" }],
  ["from_json('{\"v\":[1,2]}', 'v map<string,int>')", { json: '{"r":{}}', type: "struct<v:map<string,int>>" }],
  [
    "from_json('[{\"a\":1}]', 'a int', map('mode','FAILFAST'))",
    { error: "MALFORMED_RECORD_IN_PARSING.CANNOT_PARSE_JSON_ARRAYS_AS_STRUCTS" },
  ],
  ["from_json('[1,\"x\"]', 'array<int>', map('mode','FAILFAST'))", { error: "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION" }],
  ["from_json('{\"a\":1}', 'array<int>', map('mode','FAILFAST'))", { error: "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION" }],
  ["from_json('{\"a\":\"x\"}', 'map<string,int>', map('mode','FAILFAST'))", { error: "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION" }],
  ["from_json('[1]', 'map<string,int>', map('mode','FAILFAST'))", { error: "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION" }],
  ["from_json('{\"v\":{\"1\":1}}', 'v map<int,int>')", { error: "DATATYPE_MISMATCH.INVALID_JSON_MAP_KEY_TYPE" }],
  ["from_json('[{\"1\":1}]', 'array<map<int,int>>')", { error: "DATATYPE_MISMATCH.INVALID_JSON_MAP_KEY_TYPE" }],
  ["from_json('[1,\\n2]', 'array<int>')", { json: '{"r":[1,2]}', type: "array<int>" }],
  ["from_json('{\"a\":\\n1}', 'map<string,int>')", { json: '{"r":{"a":1}}', type: "map<string,int>" }],
  ["from_json('[{\"a\":1}, {\"b\":2}]', 'array<map<string,int>>')", { json: '{"r":[{"a":1},{"b":2}]}', type: "array<map<string,int>>" }],
  [
    "from_json('[{\"a\":1,\"b\":[1,2]}]', 'array<struct<a:int,b:array<int>>>')",
    { json: '{"r":[{"a":1,"b":[1,2]}]}', type: "array<struct<a:int,b:array<int>>>" },
  ],
  ["from_json('{\"a\":1} x', 'array<struct<a:int>>')", { json: '{"r":[{"a":1}]}', type: "array<struct<a:int>>" }],
  ["from_json('[1] [2]', 'array<int>')", { json: '{"r":[1]}', type: "array<int>" }],
  ["from_json('{\"a\":\"2024-01-01\"}', 'map<string,date>')", { json: '{"r":{"a":"2024-01-01"}}', type: "map<string,date>" }],
  ["from_json('[\"1.5\"]', 'array<double>')", { json: "{}", type: "array<double>" }],
  ["from_json('[1.5]', 'array<int>')", { json: "{}", type: "array<int>" }],
  ["from_json('[\"x\"]', 'array<int>')", { json: "{}", type: "array<int>" }],
  ["from_json('[1e2]', 'array<double>')", { json: '{"r":[100.0]}', type: "array<double>" }],
  ["from_json('[1, 2]', 'array<string>')", { json: '{"r":["1","2"]}', type: "array<string>" }],
  ["from_json('[{\"a\":1}]', 'array<string>')", { json: '{"r":["{\\"a\\":1}"]}', type: "array<string>" }],
  ["from_json('{\"a\":{\"b\":1}}', 'map<string,string>')", { json: '{"r":{"a":"{\\"b\\":1}"}}', type: "map<string,string>" }],
  ["from_json('{\"a\":1}', 'map<string,string>')", { json: '{"r":{"a":"1"}}', type: "map<string,string>" }],
  ["from_json('[null]', 'array<struct<a:int>>')", { json: '{"r":[null]}', type: "array<struct<a:int>>" }],
  ["from_json('[{\"a\":1},null]', 'array<struct<a:int>>')", { json: '{"r":[{"a":1},null]}', type: "array<struct<a:int>>" }],
  ["from_json('{\"a\":1}', 'array<struct<b:int>>')", { json: '{"r":[{}]}', type: "array<struct<b:int>>" }],
  ["from_json('{}', 'array<struct<a:int>>')", { json: '{"r":[{}]}', type: "array<struct<a:int>>" }],
  ["from_json('{\"a\":1}', 'array<array<int>>')", { json: "{}", type: "array<array<int>>" }],
  ["from_json('[]', 'a int', map('mode','FAILFAST'))", { error: "MALFORMED_RECORD_IN_PARSING.CANNOT_PARSE_JSON_ARRAYS_AS_STRUCTS" }],
];

describe("from_json with an ARRAY or MAP schema", () => {
  it("gives PySpark 4.3's answers", async () => {
    for (const [expr, expected] of PYSPARK) assert.deepEqual(await exprOutcome(session, expr), expected, expr);
  });

  it("takes the schema as DDL, a DataType or Spark's schema JSON in the DataFrame API", async () => {
    const df = session.createDataFrame([{ v: '[{"a":1},{"a":2}]', m: '{"x":1,"y":null}' }], "v STRING, m STRING");
    const [row] = await df
      .select(
        F.from_json("v", "ARRAY<STRUCT<a: INT>>").alias("ddl"),
        F.from_json(
          "v",
          '{"type":"array","elementType":{"type":"struct","fields":[{"name":"a","type":"integer","nullable":true,"metadata":{}}]},"containsNull":true}',
        ).alias("json"),
        F.from_json("m", MapOf(StringType, IntegerType)).alias("map"),
        F.from_json("m", "map<string, int>").alias("mapDdl"),
        F.from_json("v", ArrayOf(IntegerType)).alias("wrong"),
      )
      .collect();
    assert.deepEqual(row!.ddl, [{ a: 1 }, { a: 2 }]);
    assert.deepEqual(row!.json, [{ a: 1 }, { a: 2 }]);
    assert.deepEqual(
      row!.map,
      new Map([
        ["x", 1],
        ["y", null],
      ]),
    );
    assert.deepEqual(row!.mapDdl, row!.map);
    assert.equal(row!.wrong, null);
  });

  it("a UTF-8 STRING column (a Kafka value cast to STRING) gives the string path's values, and JSON.parse's for arrays of ints (property)", async () => {
    const special = ["", " ", "null", "[]", "[1,", "{}", '{"a":1}', "[1, 2] x", " [3]\n", '["x"]', "[1.5]", "[[1]]", "7"];
    const value = fc.oneof(
      fc.constantFrom(...special),
      fc.array(fc.option(fc.integer(), { nil: null }), { maxLength: 5 }).map((a) => JSON.stringify(a)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(value, { nil: null }), { minLength: 1, maxLength: 20 }), async (texts) => {
        const df = session.createDataFrame(
          texts.map((v) => ({ v, b: v === null ? null : new Uint8Array(Buffer.from(v)) })),
          "v STRING, b BINARY",
        );
        const rows = await df
          .select(F.from_json("v", "array<int>").alias("s"), F.from_json(F.col("b").cast("string"), "array<int>").alias("y"))
          .collect();
        rows.forEach((r, i) => {
          assert.deepEqual(r.y, r.s);
          const text = texts[i];
          if (text !== null && text !== undefined && /^\[(-?\d+|null)?(,(-?\d+|null))*\]$/.test(text))
            assert.deepEqual(r.s, JSON.parse(text));
        });
      }),
      { numRuns: 50 },
    );
  });

  it("a struct schema over a top-level array: fields NULL in PERMISSIVE (Spark 4), CANNOT_PARSE_JSON_ARRAYS_AS_STRUCTS in FAILFAST", async () => {
    const df = session.createDataFrame([{ v: '[{"a":1}]' }], "v STRING");
    assert.deepEqual((await df.select(F.from_json("v", "a INT").alias("s")).collect())[0]!.s, { a: null });
    await assert.rejects(
      df.select(F.from_json("v", "a INT", { mode: "FAILFAST" })).collect(),
      /\[MALFORMED_RECORD_IN_PARSING\.CANNOT_PARSE_JSON_ARRAYS_AS_STRUCTS\] Malformed records are detected in record parsing: \[\{"a":1\}\]/,
    );
  });
});
