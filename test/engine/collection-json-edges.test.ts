// More edges a sweep against PySpark 4.3 found: array subscripts out of bounds (ANSI error,
// get() / try_element_at tolerate), from_json with a DDL schema in SQL text, to_json of arrays
// and maps, and DECIMAL seconds cast to TIMESTAMP. Expected values are PySpark's.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { utcSession } from "./helpers.js";

const s = utcSession();
const value = async (expr: string) => (await s.sql(`SELECT ${expr} AS v`).collect())[0]!.v;

describe("array subscripts", () => {
  it("out of bounds fails under ANSI with INVALID_ARRAY_INDEX; get() and try_element_at give NULL", async () => {
    await assert.rejects(
      value("array(10, 20)[5]"),
      /\[INVALID_ARRAY_INDEX\] The index 5 is out of bounds\. The array has 2 elements\. Use the SQL function `get\(\)`/,
    );
    await assert.rejects(value("array(10, 20)[-1]"), /INVALID_ARRAY_INDEX/);
    assert.equal(await value("array(10, 20)[1]"), 20);
    assert.equal(await value("get(array(10, 20), 5)"), null);
    assert.equal(await value("try_element_at(array(10, 20), 5)"), null);
    assert.equal(await value("try_element_at(array(10, 20), -1)"), 20);
    await assert.rejects(value("element_at(array(10, 20), 5)"), /INVALID_ARRAY_INDEX_IN_ELEMENT_AT/);
    assert.equal(await value("map('a', 1)['z']"), null);
    assert.deepEqual(await value("reverse(array(1, 2, 3))"), [3, 2, 1]);
    assert.deepEqual(await value("concat(array(1), array(2, 3))"), [1, 2, 3]);
    assert.deepEqual(await value("array_sort(array('b', 'a', null, 'c'))"), ["a", "b", "c", null]);
    assert.deepEqual(await value("array_repeat('x', 3)"), ["x", "x", "x"]);
    assert.deepEqual(await value("array_repeat(1, -1)"), []);
    assert.equal(await value("array_repeat('x', null)"), null);
    assert.equal(await value("space(3)"), "   ");
    assert.equal(await value("hex(encode('héllo', 'UTF-8'))"), "68C3A96C6C6F");
    assert.equal(await value("hex(encode('a', 'UTF-16'))"), "FEFF0061");
    assert.equal(await value("decode(X'E9', 'ISO-8859-1')"), "é");
    assert.equal(await value("decode(X'FEFF0061', 'utf-16')"), "a");
    await assert.rejects(value("encode('é', 'US-ASCII')"), /MALFORMED_CHARACTER_CODING.*`encode` with US-ASCII/);
    await assert.rejects(value("decode(X'FF', 'UTF-8')"), /MALFORMED_CHARACTER_CODING/);
    await assert.rejects(value("encode('a', 'foo')"), /INVALID_PARAMETER_VALUE\.CHARSET/);
    assert.equal(await value("decode(2, 1, 'a', 2, 'b', 'z')"), "b");
    assert.equal(await value("decode(5, 1, 'a', 2, 'b')"), null);
    assert.equal(await value("decode(null, 1, 'a', null, 'n', 'z')"), "n");
    assert.deepEqual(await value("concat(array('x'), array(null))"), ["x", null]);
    await assert.rejects(value("concat(array(1), 'a')"), /DATA_DIFF_TYPES.*Input to `concat` should all be the same type/);
    assert.equal(await value("reverse('abc😀')"), "😀cba");
    s.conf.set("spark.sql.ansi.enabled", "false");
    try {
      assert.equal(await value("array(10, 20)[5]"), null);
    } finally {
      s.conf.set("spark.sql.ansi.enabled", "true");
    }
  });
});

describe("JSON", () => {
  it("from_json takes a DDL schema in SQL text", async () => {
    assert.deepEqual(await value(`from_json('{"a": 1, "b": "x"}', 'a INT, b STRING')`), { a: 1, b: "x" });
    assert.deepEqual(await value(`from_json('{"a": "nope"}', 'a INT')`), { a: null });
    assert.equal(await value(`from_json('{"a": {"b": 2}}', 'a STRUCT<b: INT>').a.b`), 2);
    assert.deepEqual(await value(`from_csv('1,x', 'a INT, b STRING')`), { a: 1, b: "x" });
  });
  it("to_json writes arrays and maps", async () => {
    assert.equal(await value("to_json(map('k', 1.5))"), '{"k":1.5}');
    assert.equal(await value("to_json(array(named_struct('x', DATE'2024-01-02')))"), '[{"x":"2024-01-02"}]');
    assert.equal(await value("to_json(array(1, null, 3))"), "[1,null,3]");
    assert.equal(await value("to_json(map('a', array(1), 'b', null))"), '{"a":[1],"b":null}');
    assert.equal(await value("to_json(CAST(NULL AS ARRAY<INT>))"), null);
    assert.equal(await value("to_json(array())"), "[]");
  });
});

describe("LIKE and RLIKE as functions", () => {
  it("like(s, p), rlike(s, p) and regexp(s, p) parse as Spark parses them", async () => {
    assert.equal(await value("like('abc', 'a%')"), true);
    assert.equal(await value("rlike('abc', 'b')"), true);
    assert.equal(await value("regexp('abc', '^x')"), false);
  });
});

describe("window()", () => {
  it("its fields can be read in the same expression (window(ts, '5 seconds').start)", async () => {
    const v = await value("window(TIMESTAMP'2024-01-01 00:00:07', '5 seconds').start");
    assert.equal((v as Date).toISOString(), "2024-01-01T00:00:05.000Z");
  });
});

describe("casts", () => {
  it("DECIMAL seconds to TIMESTAMP, truncated to the microsecond", async () => {
    assert.equal(((await value("CAST(1700000000.5 AS TIMESTAMP)")) as Date).toISOString(), "2023-11-14T22:13:20.500Z");
    assert.equal(((await value("CAST(CAST(-1.5 AS DECIMAL(3,1)) AS TIMESTAMP)")) as Date).toISOString(), "1969-12-31T23:59:58.500Z");
    assert.equal(((await value("CAST(1.5 AS TIMESTAMP)")) as Date).toISOString(), "1970-01-01T00:00:01.500Z");
  });
});
