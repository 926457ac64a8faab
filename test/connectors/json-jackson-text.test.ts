// JSON as Spark 4.3 reads it where JSON.parse alone cannot tell: Jackson's default extensions
// (single-quoted strings, NaN / Infinity / +INF / -INF), integer columns that refuse `1.0` and
// `1e2`, and a STRING column given a non-string value — its source text in the file source,
// Jackson's regenerated text in from_json (`1e5` → "100000.0"). Each case is [line, the file
// source's row, from_json's row], every expected row PySpark 4.3.0's (to_json of the row), read
// through both decoders (WASM and the byte scanner, each falling back per line).
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { NumberText, parseJsonText, sourceTextOf } from "../../src/connectors/files/json/json-text.js";
import { F, Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

type Case = [line: string, fileRow: string, fromJsonRow: string];

const tempDir = tempDirsSync("arus-json-jackson-");

async function rows(decoder: string, cases: readonly Case[], schema: string): Promise<{ file: string[]; fromJson: string[] }> {
  const dir = tempDir();
  writeFileSync(join(dir, "part-0.json"), `${cases.map((c) => c[0]).join("\n")}\n`);
  const session = Session.builder().config("spark.sql.session.timeZone", "UTC").config("arus.json.decoder", decoder).getOrCreate();
  const file = await session.read
    .schema(`${schema}, _corrupt_record STRING`)
    .json(dir)
    .select(F.to_json(F.struct(F.col("*"))).alias("j"))
    .collect();
  const fromJson = await session.read
    .text(dir)
    .select(F.to_json(F.from_json(F.col("value"), schema)).alias("j"))
    .collect();
  return { file: file.map((r) => r.j as string), fromJson: fromJson.map((r) => r.j as string) };
}

const JACKSON_EXTENSIONS: Case[] = [
  ['{"a":NaN,"s":"x"}', '{"a":"NaN","s":"x"}', '{"a":"NaN","s":"x"}'],
  ['{"a":Infinity}', '{"a":"Infinity"}', '{"a":"Infinity"}'],
  ['{"a":-Infinity}', '{"a":"-Infinity"}', '{"a":"-Infinity"}'],
  ['{"a":+Infinity}', '{"a":"Infinity"}', '{"a":"Infinity"}'],
  ['{"a":INF}', '{"_corrupt_record":"{\\"a\\":INF}"}', "{}"],
  ['{"a":-INF}', '{"a":"-Infinity"}', '{"a":"-Infinity"}'],
  ['{"a":+INF}', '{"a":"Infinity"}', '{"a":"Infinity"}'],
  ['{"a":+1}', '{"_corrupt_record":"{\\"a\\":+1}"}', "{}"],
  ['{"a":nan}', '{"_corrupt_record":"{\\"a\\":nan}"}', "{}"],
  ["{'a':1.5,'s':'it''s'}", "{\"_corrupt_record\":\"{'a':1.5,'s':'it''s'}\"}", "{}"],
  ["{'a':2.5,'s':'say \"hi\"'}", '{"a":2.5,"s":"say \\"hi\\""}', '{"a":2.5,"s":"say \\"hi\\""}'],
  ["{\"a\":3.5,'s':'esc \\' q'}", '{"a":3.5,"s":"esc \' q"}', '{"a":3.5,"s":"esc \' q"}'],
  ['{"s":NaN}', '{"s":"NaN"}', '{"s":"\\"NaN\\""}'],
  ['{"i":NaN}', '{"_corrupt_record":"{\\"i\\":NaN}"}', "{}"],
  ['{"s":Infinity,"a":1}', '{"a":1.0,"s":"Infinity"}', '{"a":1.0,"s":"\\"Infinity\\""}'],
  ['{"a":01}', '{"_corrupt_record":"{\\"a\\":01}"}', "{}"],
  ['{"a":1.}', '{"_corrupt_record":"{\\"a\\":1.}"}', "{}"],
  ['{"a":.5}', '{"_corrupt_record":"{\\"a\\":.5}"}', "{}"],
  ['{"arr":[NaN, 1]}', '{"arr":["NaN","1"]}', '{"arr":["\\"NaN\\"","1"]}'],
  ["{'arr':['x', NaN]}", '{"arr":["x","NaN"]}', '{"arr":["x","\\"NaN\\""]}'],
  ['{"s":+Infinity}', '{"s":"+Infinity"}', '{"s":"\\"Infinity\\""}'],
  ['{"s":-INF}', '{"s":"-INF"}', '{"s":"\\"-Infinity\\""}'],
  ['{"s":+INF}', '{"s":"+INF"}', '{"s":"\\"Infinity\\""}'],
  ['{"s":-Infinity}', '{"s":"-Infinity"}', '{"s":"\\"-Infinity\\""}'],
  ['{"s":[NaN,1.50,-INF]}', '{"s":"[NaN,1.50,-INF]"}', '{"s":"[\\"NaN\\",1.5,\\"-Infinity\\"]"}'],
  ['{"s":{"x":NaN}}', '{"s":"{\\"x\\":NaN}"}', '{"s":"{\\"x\\":\\"NaN\\"}"}'],
  ['{"s":1.50}', '{"s":"1.50"}', '{"s":"1.5"}'],
  ["{'s':'a\\\"b'}", '{"s":"a\\"b"}', '{"s":"a\\"b"}'],
  ["{'s':'a\\nb'}", '{"s":"a\\nb"}', '{"s":"a\\nb"}'],
  ["{'s':'a\\u0041b'}", '{"s":"aAb"}', '{"s":"aAb"}'],
  ["{'s':''}", '{"s":""}', '{"s":""}'],
  ["{'s':'x','a':NaN}", '{"a":"NaN","s":"x"}', '{"a":"NaN","s":"x"}'],
  ["['x']", '{"_corrupt_record":"[\'x\']"}', "{}"],
  ["[{'s':'x'}]", '{"s":"x"}', "{}"],
  ['{"a":NaN }', '{"a":"NaN"}', '{"a":"NaN"}'],
  ['{"a": -Infinity ,"s":"q"}', '{"a":"-Infinity","s":"q"}', '{"a":"-Infinity","s":"q"}'],
  ['{"a":Infinityx}', '{"_corrupt_record":"{\\"a\\":Infinityx}"}', "{}"],
  ['{"a":NaNa}', '{"_corrupt_record":"{\\"a\\":NaNa}"}', "{}"],
  ['{"a":-NaN}', '{"_corrupt_record":"{\\"a\\":-NaN}"}', "{}"],
  ['{"a":[Infinity]}', '{"_corrupt_record":"{\\"a\\":[Infinity]}"}', "{}"],
  ['{"s": {"x" : 1.0, "y":[1, 2]} }', '{"s":"{\\"x\\" : 1.0, \\"y\\":[1, 2]}"}', '{"s":"{\\"x\\":1.0,\\"y\\":[1,2]}"}'],
  ['{"s":1e5}', '{"s":"1e5"}', '{"s":"100000.0"}'],
  ['{"s":true}', '{"s":"true"}', '{"s":"true"}'],
  ['{"s":12345678901234567890}', '{"s":"12345678901234567890"}', '{"s":"12345678901234567890"}'],
  ['{"s":-0.0}', '{"s":"-0.0"}', '{"s":"-0.0"}'],
  ['{"s":{"u":"\\u00e9\\n"}}', '{"s":"{\\"u\\":\\"\\\\u00e9\\\\n\\"}"}', '{"s":"{\\"u\\":\\"\u00e9\\\\n\\"}"}'],
  ['{"s":["a" ,"b"]}', '{"s":"[\\"a\\" ,\\"b\\"]"}', '{"s":"[\\"a\\",\\"b\\"]"}'],
  ['{"s":1E+2}', '{"s":"1E+2"}', '{"s":"100.0"}'],
  ['{"s":{}}', '{"s":"{}"}', '{"s":"{}"}'],
  ['{"s":false,"a":1}', '{"a":1.0,"s":"false"}', '{"a":1.0,"s":"false"}'],
  ['{"s":"\\"q\\" \\\\ \\/"}', '{"s":"\\"q\\" \\\\ /"}', '{"s":"\\"q\\" \\\\ /"}'],
  [
    '{"s":{"k":"\\"q\\" \\\\ \\/ \\t"}}',
    '{"s":"{\\"k\\":\\"\\\\\\"q\\\\\\" \\\\\\\\ \\\\/ \\\\t\\"}"}',
    '{"s":"{\\"k\\":\\"\\\\\\"q\\\\\\" \\\\\\\\ / \\\\t\\"}"}',
  ],
  ['{"i":12, "s":1.25}', '{"s":"1.25","i":12}', '{"s":"1.25","i":12}'],
  ['{"i":-0}', '{"i":0}', '{"i":0}'],
  ['{"s":"x", "i":1e0}', '{"s":"x","_corrupt_record":"{\\"s\\":\\"x\\", \\"i\\":1e0}"}', '{"s":"x"}'],
  ['{"s":{"__proto__":1}}', '{"s":"{\\"__proto__\\":1}"}', '{"s":"{\\"__proto__\\":1}"}'],
  ['{"__proto__":"p","s":"v"}', '{"s":"v"}', '{"s":"v"}'],
  ['{"s":\'x"y\'}', '{"s":"x\\"y"}', '{"s":"x\\"y"}'],
  ['{"s":"x",}', '{"_corrupt_record":"{\\"s\\":\\"x\\",}"}', "{}"],
  ['{"s":[1,]}', '{"_corrupt_record":"{\\"s\\":[1,]}"}', "{}"],
  ['{"s":1} x', '{"s":"1"}', '{"s":"1"}'],
  ["{'s':1} ", '{"s":"1"}', '{"s":"1"}'],
];

const NUMBER_KINDS_AND_TEXT: Case[] = [
  ['{"i":1.0}', '{"_corrupt_record":"{\\"i\\":1.0}"}', "{}"],
  ['{"i":1e2}', '{"_corrupt_record":"{\\"i\\":1e2}"}', "{}"],
  ['{"t":1.0}', '{"_corrupt_record":"{\\"t\\":1.0}"}', "{}"],
  ['{"s":-0}', '{"s":"-0"}', '{"s":"0"}'],
  ['{"s":[1.0e2, "a\\u0041\\u001f"]}', '{"s":"[1.0e2, \\"a\\\\u0041\\\\u001f\\"]"}', '{"s":"[100.0,\\"aA\\\\u001F\\"]"}'],
  ['{"s":{"k":1E400}}', '{"s":"{\\"k\\":1E400}"}', '{"s":"{\\"k\\":\\"Infinity\\"}"}'],
  ['{"o":{"s":1.0}}', '{"o":{"s":"1.0"}}', '{"o":{"s":"1.0"}}'],
  ['{"o":{"s":{"z" : 2}}}', '{"o":{"s":"{\\"z\\" : 2}"}}', '{"o":{"s":"{\\"z\\":2}"}}'],
  ['{"m":{"k":1.0}}', '{"m":{"k":"1.0"}}', '{"m":{"k":"1.0"}}'],
  ['{"as":[1.0, {"q" :1}]}', '{"as":["1.0","{\\"q\\" :1}"]}', '{"as":["1.0","{\\"q\\":1}"]}'],
  ['{"s":  -12.50e-1  }', '{"s":"-12.50e-1"}', '{"s":"-1.25"}'],
  ['{"i":3,"t":5,"s":"x.5e"}', '{"i":3,"t":"1970-01-01T00:00:05.000Z","s":"x.5e"}', '{"i":3,"t":"1970-01-01T00:00:05.000Z","s":"x.5e"}'],
  [
    '{"i":4,"s":"2.5","t":"2024-01-01 00:00:00.5"}',
    '{"i":4,"t":"2024-01-01T00:00:00.500Z","s":"2.5"}',
    '{"i":4,"t":"2024-01-01T00:00:00.500Z","s":"2.5"}',
  ],
  ['{"m":{"a":1,"b":2.5}}', '{"m":{"a":"1","b":"2.5"}}', '{"m":{"a":"1","b":"2.5"}}'],
  ['{"as":[true,null,"x"]}', '{"as":["true",null,"x"]}', '{"as":["true",null,"x"]}'],
  ['{"t":1e0}', '{"_corrupt_record":"{\\"t\\":1e0}"}', "{}"],
  ['{"i":-2147483648}', '{"i":-2147483648}', '{"i":-2147483648}'],
  ['{"i":2147483648}', '{"_corrupt_record":"{\\"i\\":2147483648}"}', "{}"],
  ['{"i":1E0}', '{"_corrupt_record":"{\\"i\\":1E0}"}', "{}"],
  ['{"o":{"s":-0.0}}', '{"o":{"s":"-0.0"}}', '{"o":{"s":"-0.0"}}'],
];

describe("JSON read as Spark's Jackson parser reads it (PySpark 4.3's rows)", () => {
  for (const decoder of ["wasm", "js"]) {
    it(`single quotes and non-numeric numbers, file source and from_json (${decoder} decoder)`, async () => {
      const got = await rows(decoder, JACKSON_EXTENSIONS, "a DOUBLE, s STRING, i INT, arr ARRAY<STRING>");
      JACKSON_EXTENSIONS.forEach(([line, file, fromJson], i) => {
        assert.equal(got.file[i], file, `file source, line ${line}`);
        assert.equal(got.fromJson[i], fromJson, `from_json, line ${line}`);
      });
    });

    it(`integer columns refuse fractions; STRING columns keep the text of numbers, objects and arrays (${decoder} decoder)`, async () => {
      const schema = "i INT, t TIMESTAMP, s STRING, o STRUCT<s: STRING>, m MAP<STRING,STRING>, as ARRAY<STRING>";
      const got = await rows(decoder, NUMBER_KINDS_AND_TEXT, schema);
      NUMBER_KINDS_AND_TEXT.forEach(([line, file, fromJson], i) => {
        assert.equal(got.file[i], file, `file source, line ${line}`);
        assert.equal(got.fromJson[i], fromJson, `from_json, line ${line}`);
      });
    });
  }

  it("a top-level array's elements keep their own text: one row each in the file source", async () => {
    const got = await rows("js", [['[{"s":1.0},{"s":{"k" : 2}}]', "", ""]], "s STRING");
    assert.deepEqual(got.file, ['{"s":"1.0"}', '{"s":"{\\"k\\" : 2}"}']);
    assert.deepEqual(got.fromJson, ["{}"]);
  });
});

/** parseJsonText's tree with every NumberText as its double: what JSON.parse gives. */
function plain(v: unknown): unknown {
  if (v instanceof NumberText) return v.value();
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

describe("parseJsonText (property)", () => {
  it("reads whatever JSON.parse reads to the same values, and keeps each object's and array's source text", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, spaced) => {
        const text = JSON.stringify(value, null, spaced ? 1 : undefined);
        const parsed = parseJsonText(text);
        assert.deepEqual(plain(parsed), JSON.parse(text));
        if (typeof parsed === "object" && parsed !== null && !(parsed instanceof NumberText)) assert.equal(sourceTextOf(parsed), text);
      }),
      { numRuns: 500 },
    );
  });
});

/** from_json calls and PySpark 4.3's to_json of a one-field struct holding the result. */
const PARTIAL_FROM_JSON: [call: string, sparkJson: string][] = [
  ["from_json('[1.0, 2]', 'ARRAY<INT>')", "{}"],
  ["from_json('[{\"a\":1.0, \"b\":2}]', 'ARRAY<STRUCT<a: INT, b: INT>>')", '{"r":[{"b":2}]}'],
  ['from_json(\'[{"a":"x", "b":2}, {"a":3}]\', \'ARRAY<STRUCT<a: INT, b: INT>>\')', '{"r":[{"b":2},{"a":3}]}'],
  ['from_json(\'{"o":{"a":1.0,"b":2}, "c":3}\', \'o STRUCT<a: INT, b: INT>, c INT\')', '{"r":{"o":{"b":2},"c":3}}'],
  ['from_json(\'{"o":{"a":"x","b":2}, "c":3}\', \'o STRUCT<a: INT, b: INT>, c INT\')', '{"r":{"o":{"b":2},"c":3}}'],
  ['from_json(\'{"o":[1, "x"], "c":3}\', \'o ARRAY<INT>, c INT\')', '{"r":{"c":3}}'],
  ['from_json(\'{"o":{"k":"x"}, "c":3}\', \'o MAP<STRING, INT>, c INT\')', '{"r":{"c":3}}'],
  ['from_json(\'{"k":{"a":"x"}}\', \'MAP<STRING, STRUCT<a: INT>>\')', '{"r":{"k":{}}}'],
  ["from_json('[[1.0]]', 'ARRAY<ARRAY<INT>>')", "{}"],
  ['from_json(\'{"a":"x", "b":2}\', \'a INT, b INT\')', '{"r":{"b":2}}'],
];

describe("partial results: a STRUCT keeps the fields that converted (PySpark 4.3)", () => {
  it("from_json: nested structs, structs in arrays and maps keep their good fields; a failing ARRAY or MAP element fails the whole", async () => {
    const session = Session.builder().getOrCreate();
    for (const [call, expected] of PARTIAL_FROM_JSON) {
      const [r] = await session.sql(`SELECT to_json(named_struct('r', ${call})) AS j`).collect();
      assert.equal(r!.j, expected, call);
    }
  });

  it("the file source keeps them too, and still calls the record corrupt (PERMISSIVE) or drops it (DROPMALFORMED)", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "part-0.json"),
      `${['{"o":{"a":"x","b":2}, "c":3}', '[{"o":{"a":1.0,"b":2}, "c":3}]', '{"o":{"a":1,"b":2}, "c":3}', '{"arr":[{"a":"x","b":1}], "c":1}', '{"m":{"k":{"a":"x","b":1}}, "c":1}', '{"arr":[1, "x"], "c":1}'].join("\n")}\n`,
    );
    const session = Session.builder().getOrCreate();
    const schema =
      "o STRUCT<a: INT, b: INT>, c INT, arr ARRAY<STRUCT<a: INT, b: INT>>, m MAP<STRING, STRUCT<a: INT, b: INT>>, _corrupt_record STRING";
    const read = async (mode: string) =>
      (
        await session.read
          .schema(schema)
          .option("mode", mode)
          .json(dir)
          .select(F.to_json(F.struct(F.col("*"))).alias("j"))
          .collect()
      ).map((r) => r.j);
    assert.deepEqual(await read("PERMISSIVE"), [
      '{"o":{"b":2},"c":3,"_corrupt_record":"{\\"o\\":{\\"a\\":\\"x\\",\\"b\\":2}, \\"c\\":3}"}',
      '{"o":{"b":2},"c":3,"_corrupt_record":"[{\\"o\\":{\\"a\\":1.0,\\"b\\":2}, \\"c\\":3}]"}',
      '{"o":{"a":1,"b":2},"c":3}',
      '{"c":1,"arr":[{"b":1}],"_corrupt_record":"{\\"arr\\":[{\\"a\\":\\"x\\",\\"b\\":1}], \\"c\\":1}"}',
      '{"c":1,"m":{"k":{"b":1}},"_corrupt_record":"{\\"m\\":{\\"k\\":{\\"a\\":\\"x\\",\\"b\\":1}}, \\"c\\":1}"}',
      '{"c":1,"_corrupt_record":"{\\"arr\\":[1, \\"x\\"], \\"c\\":1}"}',
    ]);
    assert.deepEqual(await read("DROPMALFORMED"), ['{"o":{"a":1,"b":2},"c":3}']);
  });
});

/** JSON functions over Jackson's extensions and trailing text (PySpark 4.3: to_json of named_struct('r', call)). */
const JSON_FUNCTIONS: [call: string, sparkJson: string][] = [
  ["from_json('{\"a\":1} {\"a\":2}', 'a INT')", '{"r":{"a":1}}'],
  ["from_json('{\"a\":1}}', 'a INT')", '{"r":{"a":1}}'],
  ["from_json('{''a'':1.0}', 'a DOUBLE, b STRING')", '{"r":{"a":1.0}}'],
  ['from_json(\'{"a":1, "b": {"c" : 1.50}}\', \'a INT, b STRING\')', '{"r":{"a":1,"b":"{\\"c\\":1.5}"}}'],
  ["from_json('{\"a\":1.0}', 'a INT')", '{"r":{}}'],
  ["from_json('[{\"a\":1.0}]', 'ARRAY<STRUCT<a: INT>>')", '{"r":[{}]}'],
  ["from_json('{\"k\":1e2}', 'MAP<STRING, STRING>')", '{"r":{"k":"100.0"}}'],
  ["from_json('{\"k\":NaN}', 'MAP<STRING, DOUBLE>')", '{"r":{"k":"NaN"}}'],
  ["from_json('[1.0, 2]', 'ARRAY<INT>')", "{}"],
  ["from_json('[1.0, 2]', 'ARRAY<STRING>')", '{"r":["1.0","2"]}'],
  ["from_json('{\"a\":\"x\"} trailing', 'a STRING')", '{"r":{"a":"x"}}'],
  ["get_json_object('{\"a\":1.50}', '$.a')", '{"r":"1.5"}'],
  ["get_json_object('{''a'':1}', '$.a')", '{"r":"1"}'],
  ["get_json_object('{\"a\":NaN}', '$.a')", "{}"],
  ["get_json_object('{\"a\":{\"b\" : 1.0}}', '$.a')", '{"r":"{\\"b\\":1.0}"}'],
  ["json_array_length('[NaN, 1]')", "{}"],
  ["json_object_keys('{''a'':1}')", '{"r":["a"]}'],
  ["schema_of_json('{\"a\":NaN}')", '{"r":"STRUCT<a: DOUBLE>"}'],
  ["schema_of_json('{''a'':1}')", '{"r":"STRUCT<a: BIGINT>"}'],
  ["json_array_length('[''a'', 1]')", '{"r":2}'],
  ["json_array_length('[1] x')", '{"r":1}'],
  ["json_object_keys('{\"a\":NaN}')", "{}"],
  ["json_object_keys('{\"a\":1} x')", '{"r":["a"]}'],
  ["get_json_object('{''a'':''x''}', '$.a')", '{"r":"x"}'],
  ["get_json_object('{\"a\":1} x', '$.a')", '{"r":"1"}'],
  ["get_json_object('{\"a\":[1.0, 2]}', '$.a')", '{"r":"[1.0,2]"}'],
  ["schema_of_json('{\"a\":1} x')", '{"r":"STRUCT<a: BIGINT>"}'],
  ['schema_of_json(\'[{"a":1.0},{"b":1}]\')', '{"r":"ARRAY<STRUCT<a: DOUBLE, b: BIGINT>>"}'],
  // a number where an object is expected (parseJsonText's NumberText is not an object)
  ["json_object_keys('1.5')", "{}"],
  ["json_object_keys('NaN')", "{}"],
  ["json_array_length('1.5')", "{}"],
  ["from_json('1.5', 'a INT')", '{"r":{}}'],
  ["from_json('{\"o\":1.0}', 'o STRUCT<a: INT>')", '{"r":{}}'],
  ["from_json('{\"o\":1.0, \"b\":1}', 'o MAP<STRING, INT>, b INT')", '{"r":{"b":1}}'],
  ["from_json('{\"o\":NaN, \"b\":1}', 'o ARRAY<INT>, b INT')", '{"r":{"b":1}}'],
  ["from_json('1.5', 'MAP<STRING, INT>')", "{}"],
  ["from_json('1.5', 'ARRAY<INT>')", "{}"],
  ["from_json('NaN', 'a DOUBLE')", '{"r":{}}'],
  ["schema_of_json('1.5')", '{"r":"DOUBLE"}'],
  ["schema_of_json('NaN')", '{"r":"DOUBLE"}'],
  // a value with line breaks is one record: a break inside a string is a control character
  ["from_json('{\"a\":\"x\\ny\"}', 'a STRING')", '{"r":{}}'],
  ["from_json('{\"a\":\\n1}', 'a INT')", '{"r":{"a":1}}'],
  ["from_json('{\"a\":\"x\\ny\"}', 'a STRING', map('allowUnquotedControlChars', 'true'))", '{"r":{"a":"x\\ny"}}'],
  ["from_json('[{\"a\":1},\\n{\"a\":2}]', 'ARRAY<STRUCT<a: INT>>')", '{"r":[{"a":1},{"a":2}]}'],
];

it("from_json, get_json_object, json_tuple, json_array_length, json_object_keys and schema_of_json read as Spark's (PySpark 4.3)", async () => {
  const session = Session.builder().getOrCreate();
  for (const [call, expected] of JSON_FUNCTIONS) {
    const [r] = await session.sql(`SELECT to_json(named_struct('r', ${call})) AS j`).collect();
    assert.equal(r!.j, expected, call);
  }
});

it("a line or a STRUCT field holding a number, NaN included, is a corrupt record in the file source (PySpark 4.3)", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "part-0.json"), '1.5\n{"o":1.0}\nNaN\n{"o":{"a":1}}\n');
  const got = await Session.builder()
    .getOrCreate()
    .read.schema("o STRUCT<a: INT>, _corrupt_record STRING")
    .json(dir)
    .select(F.to_json(F.struct(F.col("*"))).alias("j"))
    .collect();
  assert.deepEqual(
    got.map((r) => r.j),
    ['{"_corrupt_record":"1.5"}', '{"_corrupt_record":"{\\"o\\":1.0}"}', '{"_corrupt_record":"NaN"}', '{"o":{"a":1}}'],
  );
});

it("the integer token -0 is 0 in every numeric column, -0.0 stays -0.0, a STRING keeps `-0` (PySpark 4.3; both decoders)", async () => {
  const dir = tempDir();
  writeFileSync(
    join(dir, "part-0.json"),
    '{"a":-0,"b":-0,"f":-0,"s":-0}\n{"a":0,"b":-0.0,"f":-0.0,"s":-0.0}\n{"a":1,"b":-0e0,"f":-0E1,"s":"x"}\n',
  );
  for (const decoder of ["wasm", "js"]) {
    const session = Session.builder().config("arus.json.decoder", decoder).getOrCreate();
    const rows = await session.read
      .schema("a BIGINT, b DOUBLE, f FLOAT, s STRING")
      .json(dir)
      .selectExpr("a", "CAST(b AS STRING) b", "CAST(f AS STRING) f", "s")
      .collect();
    assert.deepEqual(
      rows.map((r) => [Object.is(r.a, -0) ? "-0" : r.a, r.b, r.f, r.s]),
      [
        [0, "0.0", "0.0", "-0"],
        [0, "-0.0", "-0.0", "-0.0"],
        [1, "-0.0", "-0.0", "x"],
      ],
      decoder,
    );
  }
});
