// Strings order by code point (Spark's UTF8_BINARY collation compares UTF-8 bytes unsigned), not
// by JS's UTF-16 code units: '\uFF61' < '😀' and '\uFFFD' < '😀' in Spark, the other way round
// with JS's <. Every ordering operation, over JS-string columns (createDataFrame) and over UTF-8
// byte columns (the JSON reader's default layout).
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { DataFrame } from "../../src/api/dataframe.js";
import { functions as F, Window } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";
import { utcSession } from "./helpers.js";

const s = utcSession();
const tmp = tempDirs("arus-string-order-");

// In code-point order: a < U+E000 < U+FF61 < U+FFFD < 😀 (U+1F600) < 😀a; x\uFFFD < x😀.
const words = ["😀", "\ufffd", "a", "\uff61", "😀a", "\ue000"];
const ordered = ["a", "\ue000", "\uff61", "\ufffd", "😀", "😀a"];
const rows = words.map((w, i) => ({ k: i % 2 === 0 ? "p" : "q", w, x: `x${w}` }));
const ddl = "k STRING, w STRING, x STRING";

/** The same rows as JS strings and as UTF-8 vectors read from a JSON file. */
async function frames(): Promise<[string, DataFrame][]> {
  const dir = await tmp();
  const file = join(dir, "rows.json");
  await writeFile(file, rows.map((r) => JSON.stringify(r)).join("\n"));
  return [
    ["JS strings", s.createDataFrame(rows, ddl)],
    ["UTF-8 vectors", s.read.schema(ddl).json(file)],
  ];
}

const col = (rs: Record<string, unknown>[], c: string) => rs.map((r) => r[c]);

describe("strings order by code point, as Spark's UTF8_BINARY", () => {
  it("ORDER BY (ascending, descending, SQL)", async () => {
    for (const [what, df] of await frames()) {
      assert.deepStrictEqual(col(await df.orderBy("w").collect(), "w"), ordered, what);
      assert.deepStrictEqual(col(await df.orderBy(F.col("w").desc()).collect(), "w"), [...ordered].reverse(), what);
      df.createOrReplaceTempView("string_order");
      assert.deepStrictEqual(
        col(await s.sql("SELECT x FROM string_order ORDER BY x").collect(), "x"),
        ordered.map((w) => `x${w}`),
        what,
      );
    }
  });

  it("min / max, global and per group", async () => {
    for (const [what, df] of await frames()) {
      assert.deepStrictEqual(await df.agg(F.min("w").alias("lo"), F.max("w").alias("hi")).collect(), [{ lo: "a", hi: "😀a" }], what);
      const byK = await df.groupBy("k").agg(F.min("x").alias("lo"), F.max("w").alias("hi")).orderBy("k").collect();
      // p: 😀, a, 😀a; q: \ufffd, \uff61, \ue000
      assert.deepStrictEqual(
        byK,
        [
          { k: "p", lo: "xa", hi: "😀a" },
          { k: "q", lo: "x\ue000", hi: "\ufffd" },
        ],
        what,
      );
    }
  });

  it("min / max whichever row comes first", async () => {
    for (const pair of [
      ["\ufffd", "😀"],
      ["😀", "\ufffd"],
      ["\uff61", "😀a"],
      ["😀a", "\uff61"],
      ["a", "😀"],
      ["😀", "a"],
    ]) {
      const df = s.createDataFrame(
        pair.map((w) => ({ w })),
        "w STRING",
      );
      const [lo, hi] = [...pair].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
      assert.deepStrictEqual(await df.agg(F.min("w").alias("lo"), F.max("w").alias("hi")).collect(), [{ lo, hi }], JSON.stringify(pair));
    }
  });

  it("< / > / <= / >= filters against a literal and between columns", async () => {
    for (const [what, df] of await frames()) {
      const below = async (c: ReturnType<typeof F.col>) => col(await df.where(c).orderBy("w").collect(), "w");
      assert.deepStrictEqual(await below(F.col("w").lt("😀")), ["a", "\ue000", "\uff61", "\ufffd"], what);
      assert.deepStrictEqual(await below(F.col("w").gt("\uffff")), ["😀", "😀a"], what);
      assert.deepStrictEqual(await below(F.col("w").leq("\uff61")), ["a", "\ue000", "\uff61"], what);
      assert.deepStrictEqual(await below(F.col("x").geq("x😀")), ["😀", "😀a"], what);
      assert.deepStrictEqual(await below(F.col("w").lt(F.lit("x😀"))), ["a"], what);
      // a computed right-hand side, then a column against a column
      const pairs = await df
        .select("w", F.col("w").lt(F.lit("\ufffd😀")).alias("lt"))
        .orderBy("w")
        .collect();
      assert.deepStrictEqual(col(pairs, "lt"), [true, true, true, true, false, false], what);
    }
    const two = s.createDataFrame(
      [
        { a: "\uff61", b: "😀" },
        { a: "😀", b: "\ufffd" },
      ],
      "a STRING, b STRING",
    );
    assert.deepStrictEqual(col(await two.select(F.col("a").lt(F.col("b")).alias("r")).collect(), "r"), [true, false]);
  });

  it("greatest / least, sort_array, and a window's ORDER BY", async () => {
    for (const [what, df] of await frames()) {
      const gl = await df
        .select(F.greatest("w", F.lit("\uffff")).alias("g"), F.least("w", F.lit("\uffff")).alias("l"))
        .orderBy("w")
        .collect();
      assert.deepStrictEqual(col(gl, "g"), ["\uffff", "\uffff", "\uffff", "\uffff", "😀", "😀a"], what);
      assert.deepStrictEqual(col(gl, "l"), ["a", "\ue000", "\uff61", "\ufffd", "\uffff", "\uffff"], what);
      const sortedArr = await df.agg(F.sort_array(F.collect_list("w")).alias("s")).collect();
      assert.deepStrictEqual(sortedArr, [{ s: ordered }], what);
      const ranked = await df
        .select("w", F.row_number().over(Window.orderBy("w")).alias("r"))
        .orderBy("r")
        .collect();
      assert.deepStrictEqual(col(ranked, "w"), ordered, what);
    }
  });
});
