/**
 * Spark 4 functions added in session 28, each held to PySpark 4.3's answers: randstr (Spark's
 * characters for a seed, row after row), collect_union, len, current_timezone,
 * to_timestamp_ltz, try_url_decode and try_make_timestamp_ltz; and the DataFrame API names.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const row = async (sql: string) => (await session.sql(sql).toArray())[0]!;

describe("Spark 4 additions", () => {
  it("randstr: Spark's characters for a seed, one sequence down the rows; a constant, non-negative length", async () => {
    assert.deepEqual(await row("SELECT randstr(5, 0), randstr(0, 1)"), ["ceV0P", ""]);
    assert.deepEqual(await row("SELECT randstr(10, 42)"), ["pll6YOIJNn"]);
    assert.deepEqual(await row("SELECT randstr(3, -5)"), ["EhU"]);
    assert.deepEqual(await row("SELECT randstr(3, NULL)"), ["ceV"]); // a NULL seed is 0
    assert.deepEqual(await row("SELECT randstr('3', CAST(1 AS BIGINT))"), ["fYx"]); // the length cast to INT
    assert.deepEqual(await row("SELECT randstr(NULL, 1)"), [""]);
    assert.deepEqual(
      (await session.sql("SELECT randstr(3, 0) FROM range(4)").toArray()).map((r) => r[0]),
      ["ceV", "0PX", "aR2", "IlB"],
    );
    const unseeded = (await row("SELECT randstr(12)"))[0] as string;
    assert.match(unseeded, /^[0-9a-zA-Z]{12}$/);
    assert.throws(() => session.sql("SELECT randstr(id, 0) FROM range(2)").schema, /\[DATATYPE_MISMATCH\.NON_FOLDABLE_INPUT\]/);
    assert.throws(() => session.sql("SELECT randstr(-1, 1)").schema, /\[DATATYPE_MISMATCH\.VALUE_OUT_OF_RANGE\].*current value = -1/);
    assert.throws(() => session.sql("SELECT randstr(3, CAST(1 AS SMALLINT))").schema, /requires the \("INT" or "BIGINT"\) type/);
    assert.deepEqual(await session.range(3).select(F.randstr(3, 0).alias("s")).toArray(), [["ceV"], ["0PX"], ["aR2"]]);
  });

  it("collect_union: the distinct non-NULL elements of a group's arrays", async () => {
    const union = async (values: string) =>
      (await row(`SELECT array_sort(collect_union(col)), typeof(collect_union(col)) FROM VALUES ${values} AS tab(col)`)) as [
        unknown[],
        string,
      ];
    assert.deepEqual(await union("(array(1, 2)), (array(2, 3)), (array(1))"), [[1, 2, 3], "array<int>"]);
    assert.deepEqual(await union("(array(3, NULL)), (CAST(NULL AS ARRAY<INT>)), (array(1, 3, NULL))"), [[1, 3], "array<int>"]);
    assert.deepEqual(await union("(CAST(NULL AS ARRAY<INT>))"), [[], "array<int>"]);
    assert.deepEqual(await union("(array('b', 'a')), (array('a', 'c'))"), [["a", "b", "c"], "array<string>"]);
    assert.throws(() => session.sql("SELECT collect_union(col) FROM VALUES (1) AS tab(col)").schema, /requires the "ARRAY" type/);
    const grouped = await session
      .createDataFrame(
        [
          { k: 1, a: [1, 2] },
          { k: 2, a: [5] },
          { k: 1, a: [2, 4] },
        ],
        "k INT, a ARRAY<INT>",
      )
      .groupBy("k")
      .agg(F.array_sort(F.collect_union("a")).alias("u"))
      .orderBy("k")
      .toArray();
    assert.deepEqual(grouped, [
      [1, [1, 2, 4]],
      [2, [5]],
    ]);
  });

  it("len, current_timezone, to_timestamp_ltz, try_url_decode and try_make_timestamp_ltz", async () => {
    assert.deepEqual(await row("SELECT len('abc'), len(x'0102'), len(NULL)"), [3, 2, null]);
    assert.deepEqual(session.sql("SELECT len('abc'), to_timestamp_ltz('2024-01-01')").columns, [
      "len(abc)",
      "to_timestamp_ltz(2024-01-01)",
    ]);
    assert.deepEqual(await row("SELECT current_timezone()"), ["UTC"]);
    session.conf.set("spark.sql.session.timeZone", "Asia/Jakarta");
    try {
      assert.deepEqual(await row("SELECT current_timezone()"), ["Asia/Jakarta"]);
    } finally {
      session.conf.set("spark.sql.session.timeZone", "UTC");
    }
    assert.deepEqual(await row("SELECT to_timestamp_ltz('2024-01-02 03:04:05'), to_timestamp_ltz('2024/01/02', 'yyyy/MM/dd')"), [
      new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
      new Date(Date.UTC(2024, 0, 2)),
    ]);
    await assert.rejects(session.sql("SELECT to_timestamp_ltz('bad')").toArray(), /\[CAST_INVALID_INPUT\]/);
    assert.deepEqual(await row("SELECT try_url_decode('a%20b'), try_url_decode('a%2'), url_decode('a%20b+c')"), ["a b", null, "a b c"]);
    assert.deepEqual(await row("SELECT try_make_timestamp_ltz(2024, 1, 2, 3, 4, 5), try_make_timestamp_ltz(2024, 13, 1, 0, 0, 0)"), [
      new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
      null,
    ]);
    assert.deepEqual(await row("SELECT try_make_timestamp_ltz(2024, 1, 1, 0, 0, 0, 'Asia/Jakarta')"), [
      new Date(Date.UTC(2023, 11, 31, 17)),
    ]);
    const df = session.createDataFrame([{ s: "2024/01/02", u: "a%2" }], "s STRING, u STRING");
    assert.deepEqual(await df.select(F.to_timestamp_ltz("s", "yyyy/MM/dd"), F.try_url_decode("u"), F.current_timezone()).toArray(), [
      [new Date(Date.UTC(2024, 0, 2)), null, "UTC"],
    ]);
  });
});
