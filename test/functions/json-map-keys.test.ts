/**
 * Map keys in written JSON, held to PySpark 4.3's answers: Spark names an entry by the key's
 * internal value's text (a decimal keeps its scale, a float is Java's `1.0`, a struct or an array
 * is its values in brackets), where arus printed `[object Object]`, `150` for 1.50, `1` for true.
 * And a map's key type may not be or contain a MAP (Spark refuses it at analysis).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { exprOutcome } from "../pyspark-outcomes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();

/** to_json(...) as PySpark 4.3.0 returns it. */
const PYSPARK_TO_JSON: [string, string][] = [
  ["to_json(map(named_struct('a', 1), 'x'))", '{"[1]":"x"}'],
  ["to_json(map(named_struct('a', 1, 'b', 'q'), 'x'))", '{"[1,q]":"x"}'],
  ["to_json(map(named_struct('a', 1, 'b', named_struct('c', 2.5)), 'x'))", '{"[1,[2.5]]":"x"}'],
  ["to_json(map(array(1, 2), 'x'))", '{"[1,2]":"x"}'],
  ["to_json(map(array('a', null), 'x'))", '{"[a,null]":"x"}'],
  ["to_json(map(named_struct('a', cast(null as int)), 'x'))", '{"[null]":"x"}'],
  ["to_json(map(date'2024-01-02', 'x'))", '{"19724":"x"}'],
  ["to_json(map(timestamp'2024-01-02 03:04:05', 'x'))", '{"1704164645000000":"x"}'],
  ["to_json(map(1.5D, 'x'))", '{"1.5":"x"}'],
  ["to_json(map(1.50BD, 'x'))", '{"1.50":"x"}'],
  ["to_json(map(true, 'x'))", '{"true":"x"}'],
  ["to_json(map(cast(1 as float), 'x'))", '{"1.0":"x"}'],
  ["to_json(map(named_struct('a', array(1,2)), 'x'))", '{"[[1,2]]":"x"}'],
  ["to_json(map(array(named_struct('a', 1)), 'x'))", '{"[[1]]":"x"}'],
  ["to_json(named_struct('m', map(named_struct('a', 1), 1)))", '{"m":{"[1]":1}}'],
  ["to_json(map(named_struct('a', date'2024-01-02', 't', timestamp'2024-01-02 03:04:05'), 1))", '{"[19724,1704164645000000]":1}'],
  ["to_json(map(array(1.5D, 2D), 1))", '{"[1.5,2.0]":1}'],
  ["to_json(array(map(1.50BD, 1)))", '[{"1.50":1}]'],
  ["to_json(map('a', map(true, 1)))", '{"a":{"true":1}}'],
  ["to_json(map(cast(2 as tinyint), 1))", '{"2":1}'],
  ["to_json(map(interval '1' day, 1))", '{"86400000000":1}'],
];

/** Calls PySpark 4.3.0 refuses with DATATYPE_MISMATCH.INVALID_MAP_KEY_TYPE. */
const MAP_KEYS_WITH_MAPS = [
  "map(named_struct('a', map('k', 1)), 1)",
  "map(array(map('k', 1)), 1)",
  "map_from_arrays(array(map('a', 1)), array(1))",
  "map_from_arrays(array(named_struct('x', map('a', 1))), array(1))",
  "map_from_entries(array(named_struct('k', map('a', 1), 'v', 1)))",
  "map_from_entries(array(named_struct('k', array(map('a', 1)), 'v', 1)))",
  "transform_keys(map(1, 2), (k, v) -> map(k, v))",
  "transform_keys(map(1, 2), (k, v) -> array(map(k, v)))",
];

describe("map keys in written JSON (PySpark 4.3's answers)", () => {
  it("to_json names each entry by the key's text as Spark does", async () => {
    for (const [expr, expected] of PYSPARK_TO_JSON) {
      const [row] = (await session.sql(`SELECT ${expr} AS r`).collect()) as { r: string }[];
      assert.equal(row!.r, expected, expr);
    }
  });

  it("the JSON file writer names entries the same way (PySpark 4.3's file)", async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "arus-map-keys-")), "out");
    await session
      .sql("SELECT map(1.50BD, 1) AS d, map(true, 1) AS b, map(cast(1 as float), 1) AS f, map(date'2024-01-02', 1) AS t")
      .write.json(dir);
    const file = readdirSync(dir).find((f) => f.endsWith(".json"))!;
    assert.equal(readFileSync(path.join(dir, file), "utf8").trim(), '{"d":{"1.50":1},"b":{"true":1},"f":{"1.0":1},"t":{"19724":1}}');
  });

  it("a map key that is or contains a MAP is refused at analysis", async () => {
    for (const expr of MAP_KEYS_WITH_MAPS)
      assert.deepEqual(await exprOutcome(session, expr), { error: "DATATYPE_MISMATCH.INVALID_MAP_KEY_TYPE" }, expr);
  });
});
