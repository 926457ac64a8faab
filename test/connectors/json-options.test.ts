/**
 * JSON options as Spark 4.3 takes them, held to PySpark 4.3's answers: Jackson's parser features
 * (allowComments, allowUnquotedFieldNames, allowNumericLeadingZeros,
 * allowBackslashEscapingAnyCharacter, allowUnquotedControlChars, and turning off
 * allowSingleQuotes / allowNonNumericNumbers) for from_json, schema_of_json and the file source
 * (schema inference too), and to_json's options written as a SQL map (they crashed):
 * ignoreNullFields, pretty (Jackson's layout), timestampFormat, dateFormat; to_csv's too.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { F, Session } from "../../src/index.js";
import { type ExprOutcome, exprOutcome } from "../pyspark-outcomes.js";
import { tempDirsSync } from "../temp-dirs.js";

const tempDir = tempDirsSync("arus-json-options-");
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

const PYSPARK: [string, ExprOutcome][] = [
  [
    "to_json(named_struct('a', 1, 'b', array(1, 2), 'c', named_struct('d', 'x', 'e', array()), 'f', map(), 'g', array(named_struct('h', 1))), map('pretty', 'true'))",
    {
      json: '{"r":"{\\n  \\"a\\" : 1,\\n  \\"b\\" : [ 1, 2 ],\\n  \\"c\\" : {\\n    \\"d\\" : \\"x\\",\\n    \\"e\\" : [ ]\\n  },\\n  \\"f\\" : { },\\n  \\"g\\" : [ {\\n    \\"h\\" : 1\\n  } ]\\n}"}',
      type: "string",
    },
  ],
  ["to_json(array(1, 2), map('pretty', 'true'))", { json: '{"r":"[ 1, 2 ]"}', type: "string" }],
  [
    "to_json(map('a', named_struct('b', 1)), map('pretty', 'true'))",
    { json: '{"r":"{\\n  \\"a\\" : {\\n    \\"b\\" : 1\\n  }\\n}"}', type: "string" },
  ],
  [
    "to_json(named_struct('a', named_struct('b', NULL)), map('pretty', 'true'))",
    { json: '{"r":"{\\n  \\"a\\" : { }\\n}"}', type: "string" },
  ],
  [
    "to_json(named_struct('a', array(array(1), array())), map('pretty', 'true'))",
    { json: '{"r":"{\\n  \\"a\\" : [ [ 1 ], [ ] ]\\n}"}', type: "string" },
  ],
  [
    "to_json(named_struct('a', NULL, 'b', array(NULL)), map('ignoreNullFields', 'false', 'pretty', 'true'))",
    { json: '{"r":"{\\n  \\"a\\" : null,\\n  \\"b\\" : [ null ]\\n}"}', type: "string" },
  ],
  [
    "to_json(named_struct('a', NULL, 'b', named_struct('c', NULL)), map('ignoreNullFields', 'false'))",
    { json: '{"r":"{\\"a\\":null,\\"b\\":{\\"c\\":null}}"}', type: "string" },
  ],
  ["to_json(array(named_struct('a', NULL)), map('ignoreNullFields', 'false'))", { json: '{"r":"[{\\"a\\":null}]"}', type: "string" }],
  [
    "to_json(map('k', named_struct('a', NULL)), map('ignoreNullFields', 'false'))",
    { json: '{"r":"{\\"k\\":{\\"a\\":null}}"}', type: "string" },
  ],
  ["to_csv(named_struct('a', 1, 'b', 'x;y'), map('sep', ';'))", { json: '{"r":"1;\\"x;y\\""}', type: "string" }],
  ["to_csv(named_struct('a', 'x', 'b', NULL), map('nullValue', 'NA'))", { json: '{"r":"x,NA"}', type: "string" }],
  ["to_csv(named_struct('a', 'x\"y'), map('quote', '\\''))", { json: '{"r":"x\\"y"}', type: "string" }],
  ["to_csv(named_struct('a', 'x\"y'), map('escape', '\"'))", { json: '{"r":"\\"x\\"\\"y\\""}', type: "string" }],
  ["to_csv(named_struct('a', 'x y'), map('quoteAll', 'true'))", { json: '{"r":"\\"x y\\""}', type: "string" }],
  ["to_csv(named_struct('t', TIMESTAMP'2024-01-01 10:00:00'), map('timestampFormat', 'yyyy'))", { json: '{"r":"2024"}', type: "string" }],
  ["schema_of_json('{\"a\":1}', map('allowNumericLeadingZeros', 'true'))", { json: '{"r":"STRUCT<a: BIGINT>"}', type: "string" }],
  ["from_json('{\"a\":01}', 'a INT', map('allowNumericLeadingZeros', 'true'))", { json: '{"r":{"a":1}}', type: "struct<a:int>" }],
  ["from_json('{a:1}', 'a INT', map('allowUnquotedFieldNames', 'true'))", { json: '{"r":{"a":1}}', type: "struct<a:int>" }],
  ["from_json('{\"a\":NaN}', 'a DOUBLE', map('allowNonNumericNumbers', 'false'))", { json: '{"r":{}}', type: "struct<a:double>" }],
  ["from_json('{''a'':1}', 'a INT', map('allowSingleQuotes', 'false'))", { json: '{"r":{}}', type: "struct<a:int>" }],
  ["from_json('{\"a\":1 /* c */}', 'a INT', map('allowComments', 'true'))", { json: '{"r":{"a":1}}', type: "struct<a:int>" }],
  ["from_json('{\"a\":01}', 'a INT')", { json: '{"r":{}}', type: "struct<a:int>" }],
  ["from_json('{\"a\":-01}', 'a INT', map('allowNumericLeadingZeros', 'true'))", { json: '{"r":{"a":-1}}', type: "struct<a:int>" }],
  ["from_json('{\"a\":00.5}', 'a DOUBLE', map('allowNumericLeadingZeros', 'true'))", { json: '{"r":{"a":0.5}}', type: "struct<a:double>" }],
  ["from_json('{\"a\":007}', 'a STRING', map('allowNumericLeadingZeros', 'true'))", { json: '{"r":{"a":"7"}}', type: "struct<a:string>" }],
  ["from_json('{a-b:1}', '`a-b` INT', map('allowUnquotedFieldNames', 'true'))", { json: '{"r":{"a-b":1}}', type: "struct<a-b:int>" }],
  ["from_json('{1a:1}', '`1a` INT', map('allowUnquotedFieldNames', 'true'))", { json: '{"r":{"1a":1}}', type: "struct<1a:int>" }],
  ["from_json('{ a :1}', 'a INT', map('allowUnquotedFieldNames', 'true'))", { json: '{"r":{"a":1}}', type: "struct<a:int>" }],
  ["from_json('/* x */{\"a\":1}', 'a INT', map('allowComments', 'true'))", { json: '{"r":{"a":1}}', type: "struct<a:int>" }],
  ["from_json('{\"a\":1 # c\\n}', 'a INT', map('allowComments', 'true'))", { json: '{"r":{}}', type: "struct<a:int>" }],
  [
    "from_json('{\"a\":\"x\\\\qy\"}', 'a STRING', map('allowBackslashEscapingAnyCharacter', 'true'))",
    { json: '{"r":{"a":"xqy"}}', type: "struct<a:string>" },
  ],
  ["from_json('{\"a\":\"x\\\\qy\"}', 'a STRING')", { json: '{"r":{}}', type: "struct<a:string>" }],
  ["from_json('{\"a\":\"x\\ty\"}', 'a STRING')", { json: '{"r":{}}', type: "struct<a:string>" }],
  [
    "from_json('{\"a\":\"x\\ty\"}', 'a STRING', map('allowUnquotedControlChars', 'true'))",
    { json: '{"r":{"a":"x\\ty"}}', type: "struct<a:string>" },
  ],
  ["from_json('{\"a\":\"x\\\\''y\"}', 'a STRING')", { json: '{"r":{"a":"x\'y"}}', type: "struct<a:string>" }],
  ["from_json('{\"a\":\"x\\\\''y\"}', 'a STRING', map('allowSingleQuotes', 'false'))", { json: '{"r":{}}', type: "struct<a:string>" }],
  ["from_json('{\"a\":Infinity}', 'a DOUBLE', map('allowNonNumericNumbers', 'false'))", { json: '{"r":{}}', type: "struct<a:double>" }],
  ["from_json('{\"a\":\"NaN\"}', 'a DOUBLE', map('allowNonNumericNumbers', 'false'))", { json: '{"r":{}}', type: "struct<a:double>" }],
  ["schema_of_json('{\"a\":01}', map('allowNumericLeadingZeros', 'true'))", { json: '{"r":"STRUCT<a: BIGINT>"}', type: "string" }],
  ["schema_of_json('{a:1.5}', map('allowUnquotedFieldNames', 'true'))", { json: '{"r":"STRUCT<a: DOUBLE>"}', type: "string" }],
  ["from_json('{\"a\":1 // c\\n}', 'a INT', map('allowComments', 'true'))", { json: '{"r":{"a":1}}', type: "struct<a:int>" }],
];

/** A file read with every parser feature on, then with allowNonNumericNumbers off (PySpark 4.3's schema and rows). */
const FILE = '{a:1, "b":01} // c\n/* x */ {"a":2,"b":"x\\qy"}\n{"a":3,"b":"t\tab"}\n{"a":NaN,"b":"NaN"}\n';
const FILE_SPARK = [
  "struct<a:double,b:string>",
  '{"a":1.0,"b":"01"}',
  '{"a":2.0,"b":"xqy"}',
  '{"a":3.0,"b":"t\\tab"}',
  '{"a":"NaN","b":"NaN"}',
  '{"_corrupt_record":"{a:1, \\"b\\":01} // c"}',
  '{"_corrupt_record":"/* x */ {\\"a\\":2,\\"b\\":\\"x\\\\qy\\"}"}',
  '{"_corrupt_record":"{\\"a\\":3,\\"b\\":\\"t\\tab\\"}"}',
  '{"_corrupt_record":"{\\"a\\":NaN,\\"b\\":\\"NaN\\"}"}',
];

describe("JSON options (PySpark 4.3's answers)", () => {
  it("from_json, schema_of_json, to_json and to_csv with options give PySpark's values", async () => {
    for (const [expr, expected] of PYSPARK) assert.deepEqual(await exprOutcome(session, expr), expected, expr);
  });

  it("the file source and its schema inference take the parser features", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "p.json"), FILE);
    const all = {
      allowComments: "true",
      allowUnquotedFieldNames: "true",
      allowNumericLeadingZeros: "true",
      allowBackslashEscapingAnyCharacter: "true",
      allowUnquotedControlChars: "true",
    };
    const df = session.read.options(all).json(dir);
    const got = [`struct<${df.dtypes.map(([n, t]) => `${n}:${t}`).join(",")}>`];
    for (const r of await df.select(F.to_json(F.struct(F.col("*"))).alias("j")).collect()) got.push(r.j as string);
    const strict = session.read.options({ allowNonNumericNumbers: "false" }).schema("a DOUBLE, b DOUBLE, _corrupt_record STRING").json(dir);
    for (const r of await strict.select(F.to_json(F.struct(F.col("*"))).alias("j")).collect()) got.push(r.j as string);
    assert.deepEqual(got, FILE_SPARK);
  });
});
