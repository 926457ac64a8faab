// Issue 17: BIGINT exact over its whole range and TIMESTAMP micros exact after 2255, end to end:
// collect()/show(), every reader and writer, Arrow, streaming state (both stores) and restarts.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";

const s = Session.builder().appName("bigint-exact").config("spark.sql.session.timeZone", "UTC").getOrCreate();
const tmp = tempDirs("arus-bigint-");

const IDS = [9223372036854775807n, -9223372036854775808n, 9007199254740993n, 9007199254740992n, 9007199254740991n, 5n, null];
/** collect()'s documented rule: a number while |v| <= 2^53 - 1, a bigint beyond. */
const canon = (b: bigint | null) => (b === null ? null : b >= -(2n ** 53n - 1n) && b <= 2n ** 53n - 1n ? Number(b) : b);

describe("collect() and show()", () => {
  it("give a bigint exactly where a number would round", async () => {
    const rows = await s
      .createDataFrame(
        IDS.map((id, k) => ({ id, k })),
        "id BIGINT, k INT",
      )
      .collect();
    assert.deepEqual(
      rows.map((r) => r.id),
      IDS.map(canon),
    );
    assert.equal(typeof rows[4]!.id, "number"); // 2^53 - 1 is safe
    assert.equal(typeof rows[3]!.id, "bigint"); // 2^53 is not: 2^53 + 1 would read the same
  });

  it("show() prints every digit", async () => {
    const text = await s.createDataFrame([{ id: 9007199254740993n }], "id BIGINT").showString(20, 20, false);
    assert.match(text, /\|9007199254740993\|/);
  });

  it("a number beyond 2^53 given to createDataFrame is taken as the exact value of that double", async () => {
    const [r] = await s.createDataFrame([{ id: 2 ** 60 }], "id BIGINT").collect();
    assert.equal(r!.id, 2n ** 60n);
  });

  it("range() past 2^53 gives every id", async () => {
    const ids = (await s.range(2 ** 60, 2 ** 60 + 1024).collect()).map((r) => r.id);
    assert.equal(new Set(ids.map(String)).size, 1024);
    assert.deepEqual([ids[0], ids[1023]], [2n ** 60n, 2n ** 60n + 1023n]);
  });

  it("an out-of-range bigint is refused, not wrapped", () => {
    assert.throws(() => s.createDataFrame([{ id: 2n ** 63n }], "id BIGINT"), /out of the BIGINT range/);
  });
});

describe("functions and aggregates past 2^53", () => {
  it("min, max, avg, count(DISTINCT), orderBy, least and greatest are exact", async () => {
    const df = s.createDataFrame(
      IDS.map((id, k) => ({ id, k })),
      "id BIGINT, k INT",
    );
    const [agg] = await df
      .agg(F.min("id").alias("mi"), F.max("id").alias("ma"), F.countDistinct("id").alias("d"), F.avg("id").alias("a"))
      .collect();
    assert.deepEqual(agg, {
      mi: -9223372036854775808n,
      ma: 9223372036854775807n,
      d: 6,
      a: IDS.filter((x) => x !== null).reduce((acc: number, x) => acc + Number(x), 0) / 6,
    });
    const sorted = await df.filter(F.col("id").isNotNull()).orderBy("id").select("id").collect();
    assert.deepEqual(
      sorted.map((r) => r.id),
      [-9223372036854775808n, 5, 9007199254740991, 9007199254740992n, 9007199254740993n, 9223372036854775807n],
    );
    const [ext] = await s
      .sql("SELECT least(9007199254740993, 9007199254740992) AS l, greatest(9007199254740993, 9007199254740992) AS g")
      .collect();
    assert.deepEqual(ext, { l: 9007199254740992n, g: 9007199254740993n });
  });

  it("a BIGINT product is never -0 (the double fast path would give -1 * 0 = -0)", async () => {
    const [r] = await s
      .createDataFrame([{ x: -1n, y: 0n }], "x BIGINT, y BIGINT")
      .selectExpr("x * y AS p")
      .collect();
    assert.ok(Object.is(r!.p, 0));
  });

  it("a double-only function refuses a value it would round, with a clear error", async () => {
    await assert.rejects(
      s.sql("SELECT hour(CAST('2300-01-01 05:00:00.000001' AS TIMESTAMP)) AS h").collect(),
      (e: { errorClass?: string }) => e.errorClass === "UNSUPPORTED_FEATURE.EXACT_64_BIT",
    );
  });
});

describe("readers and writers keep every digit", () => {
  for (const format of ["json", "csv", "parquet"] as const) {
    it(`${format}: write then read`, async () => {
      const dir = join(await tmp(), format);
      const df = s.createDataFrame(
        IDS.map((id, k) => ({ id, k })),
        "id BIGINT, k INT",
      );
      await df.write.format(format).option("header", true).save(dir);
      const back = await s.read.schema("id BIGINT, k INT").format(format).option("header", true).load(dir).orderBy("k").collect();
      assert.deepEqual(
        back.map((r) => r.id),
        IDS.map(canon),
      );
    });
  }

  it("JSON text beyond 2^53 (16-18 digits, both the byte scanner and JSON.parse paths)", async () => {
    const f = join(await tmp(), "ids.json");
    // a top-level array goes to JSON.parse (one row per element), the rest to the byte scanner
    await writeFile(
      f,
      '{"id":9007199254740993}\n[{"id":9007199254740995}]\n{"id":1234567890123456789,"x":{"y":1}}\n{"id":-9007199254740993}\n',
    );
    const rows = await s.read.schema("id BIGINT").json(f).collect();
    assert.deepEqual(
      rows.map((r) => r.id),
      [9007199254740993n, 9007199254740995n, 1234567890123456789n, -9007199254740993n],
    );
    // a STRING column keeps the digits as written, a DOUBLE column the nearest double
    const text = await s.read.schema("id STRING").json(f).collect();
    assert.equal(text[0]!.id, "9007199254740993");
  });

  it("Arrow: Int64 and Timestamp(µs) both ways", async () => {
    const df = s.sql("SELECT 9223372036854775807 AS id, CAST('2300-01-01 00:00:00.000001' AS TIMESTAMP) AS ts");
    const back = await s
      .createDataFrameFromArrow(await df.toArrow())
      .selectExpr("id", "CAST(ts AS STRING) AS ts")
      .collect();
    assert.deepEqual(back, [{ id: 9223372036854775807n, ts: "2300-01-01 00:00:00.000001" }]);
  });
});

describe("streaming state keeps 64-bit keys and sums exact", () => {
  for (const columnar of ["true", "false"]) {
    it(`groupBy over a restart (arus.state.aggregation.columnar=${columnar})`, async () => {
      s.conf.set("arus.state.aggregation.columnar", columnar);
      const dir = await tmp();
      const input = join(dir, "in");
      await mkdir(input);
      const run = async (name: string) => {
        const q = await s.readStream
          .schema("id BIGINT, v BIGINT")
          .json(input)
          .groupBy("id")
          .agg(F.sum("v").alias("s"), F.max("v").alias("mx"))
          .writeStream.format("memory")
          .queryName(name)
          .outputMode("complete")
          .option("checkpointLocation", join(dir, "ck"))
          .trigger({ availableNow: true })
          .start();
        await q.awaitTermination();
        return s.sql(`SELECT * FROM ${name} ORDER BY id`).collect();
      };
      await writeFile(
        join(input, "a.json"),
        '{"id":9007199254740993,"v":4503599627370496}\n{"id":9007199254740992,"v":1}\n{"id":1,"v":2}\n',
      );
      assert.deepEqual(await run(`a${columnar}`), [
        { id: 1, s: 2, mx: 2 },
        { id: 9007199254740992n, s: 1, mx: 1 },
        { id: 9007199254740993n, s: 4503599627370496, mx: 4503599627370496 },
      ]);
      // the sum of group 9007199254740993 crosses 2^53 in the restored state
      await writeFile(join(input, "b.json"), '{"id":9007199254740993,"v":4503599627370497}\n{"id":1,"v":9223372036854775805}\n');
      assert.deepEqual(await run(`b${columnar}`), [
        { id: 1, s: 9223372036854775807n, mx: 9223372036854775805n },
        { id: 9007199254740992n, s: 1, mx: 1 },
        { id: 9007199254740993n, s: 9007199254740993n, mx: 4503599627370497 },
      ]);
      // ... and one more row of group 1 overflows Long.MaxValue: ANSI fails the query
      await writeFile(join(input, "c.json"), '{"id":1,"v":1}\n');
      await assert.rejects(run(`c${columnar}`), /ARITHMETIC_OVERFLOW/);
      s.conf.set("arus.state.aggregation.columnar", "true");
    });
  }

  for (const columnar of ["true", "false"]) {
    it(`a new key after a sum and a max went past 2^53 in the same run (arus.state.aggregation.columnar=${columnar})`, async () => {
      s.conf.set("arus.state.aggregation.columnar", columnar);
      const ms = s.memoryStream("k STRING, v BIGINT");
      const out: unknown[][] = [];
      const q = await ms
        .toDF()
        .groupBy("k")
        .agg(F.sum("v").alias("s"), F.max("v").alias("mx"), F.max(F.struct("v")).alias("st"))
        .writeStream.outputMode("update")
        .foreachBatch(async (b, id) => {
          out[id] = await b.collect();
        })
        .start();
      try {
        ms.addData([{ k: "a", v: 2n ** 60n + 1n }]);
        await q.processAllAvailable();
        // the table's buffer columns moved to the 64-bit lane in batch 0; a new entry starts at 0n there
        ms.addData([{ k: "b", v: 3 }]);
        await q.processAllAvailable();
        assert.equal(q.exception, null);
        assert.deepEqual(out, [
          [{ k: "a", s: 2n ** 60n + 1n, mx: 2n ** 60n + 1n, st: { v: 2n ** 60n + 1n } }],
          [{ k: "b", s: 3, mx: 3, st: { v: 3 } }],
        ]);
      } finally {
        await q.stop();
        s.conf.set("arus.state.aggregation.columnar", "true");
      }
    });
  }

  it("a NULL first / last value beside one past 2^53 (the buffer column on the 64-bit lane)", async () => {
    s.conf.set("arus.state.aggregation.columnar", "true");
    const ms = s.memoryStream("k STRING, big BIGINT");
    const out: unknown[][] = [];
    const q = await ms
      .toDF()
      .groupBy("k")
      .agg(F.first("big").alias("f"), F.last("big").alias("l"))
      .writeStream.outputMode("update")
      .foreachBatch(async (b, id) => {
        out[id] = (await b.collect()).sort((x, y) => String(x.k).localeCompare(String(y.k)));
      })
      .start();
    try {
      ms.addData([
        { k: "a", big: null },
        { k: "b", big: 2n ** 60n + 1n },
      ]);
      await q.processAllAvailable();
      assert.equal(q.exception, null);
      assert.deepEqual(out[0], [
        { k: "a", f: null, l: null },
        { k: "b", f: 2n ** 60n + 1n, l: 2n ** 60n + 1n },
      ]);
    } finally {
      await q.stop();
    }
  });

  it("dropDuplicates on 64-bit ids", async () => {
    const dir = await tmp();
    const input = join(dir, "in");
    await mkdir(input);
    await writeFile(join(input, "a.json"), '{"id":9007199254740993}\n{"id":9007199254740992}\n{"id":9007199254740993}\n');
    const q = await s.readStream
      .schema("id BIGINT")
      .json(input)
      .dropDuplicates(["id"])
      .writeStream.format("memory")
      .queryName("dedup64")
      .option("checkpointLocation", join(dir, "ck"))
      .trigger({ availableNow: true })
      .start();
    await q.awaitTermination();
    const rows = await s.sql("SELECT id FROM dedup64 ORDER BY id").collect();
    assert.deepEqual(
      rows.map((r) => r.id),
      [9007199254740992n, 9007199254740993n],
    );
  });
});
