// The statistics family: df.summary, df.crosstab, df.approxQuantile, df.freqItems, df.corr /
// df.cov and their df.stat spellings. Every expected column, type, value and error class was
// printed by PySpark 4.3.0 (local[1]) on the same data.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type DataFrame, functions as F } from "../../src/index.js";
import { sorted, utcSession } from "./helpers.js";

const s = utcSession();

/** NULLs, a STRING column of numbers and one of letters, a DECIMAL, a FLOAT and a BOOLEAN. */
const mixed = s.createDataFrame(
  [
    [1, 2.5, "10", "a", "1.50", 0.5, true],
    [3, null, "2.5", "b", "3.25", 1.25, false],
    [null, -1.0, null, null, null, null, null],
    [2, 4.0, "x", "a", "2.00", 2.0, true],
    [5, 0.0, "7", "c", "2.75", null, null],
  ],
  "i INT, d DOUBLE, sn STRING, sl STRING, dec DECIMAL(5,2), f FLOAT, b BOOLEAN",
);

const table = async (df: DataFrame) => ({ cols: df.columns, types: df.dtypes.map(([, t]) => t), rows: await df.toArray() });
const errorClass = (cls: string, message?: RegExp) => (e: Error & { errorClass?: string }) =>
  e.errorClass === cls && (message === undefined || message.test(e.message));

describe("df.summary", () => {
  it("the default statistics, per numeric or STRING column (a BOOLEAN left out), as text", async () => {
    const strings = Array(7).fill("string");
    assert.deepEqual(await table(mixed.summary()), {
      cols: ["summary", "i", "d", "sn", "sl", "dec", "f"],
      types: strings,
      rows: [
        ["count", "4", "4", "4", "4", "4", "3"],
        ["mean", "2.75", "1.375", "6.5", null, "2.375000", "1.25"],
        ["stddev", "1.707825127659933", "2.286737122335374", "3.774917217635375", null, "0.7772815877574012", "0.75"],
        ["min", "1", "-1.0", "10", "a", "1.50", "0.5"],
        ["25%", "1", "-1.0", "2.5", null, "1.5", "0.5"],
        ["50%", "2", "0.0", "7.0", null, "2.0", "1.25"],
        ["75%", "3", "2.5", "10.0", null, "2.75", "2.0"],
        ["max", "5", "4.0", "x", "c", "3.25", "2.0"],
      ],
    });
  });

  it("chosen statistics in the order given, named as given; count_distinct keeps a DECIMAL's scale in its percentiles", async () => {
    assert.deepEqual(
      await mixed.summary("count", "count_distinct", "approx_count_distinct", "min", "10%", "33.3%", "max", "mean").toArray(),
      [
        ["count", "4", "4", "4", "4", "4", "3"],
        ["count_distinct", "4", "4", "4", "3", "4", "3"],
        ["approx_count_distinct", "4", "4", "4", "3", "4", "3"],
        ["min", "1", "-1.0", "10", "a", "1.50", "0.5"],
        ["10%", "1", "-1.0", "2.5", null, "1.50", "0.5"],
        ["33.3%", "2", "0.0", "2.5", null, "2.00", "0.5"],
        ["max", "5", "4.0", "x", "c", "3.25", "2.0"],
        ["mean", "2.75", "1.375", "6.5", null, "2.375000", "1.25"],
      ],
    );
    assert.deepEqual(await mixed.summary("COUNT", "Mean").toArray(), [
      ["COUNT", "4", "4", "4", "4", "4", "3"],
      ["Mean", "2.75", "1.375", "6.5", null, "2.375000", "1.25"],
    ]);
    assert.deepEqual(await mixed.select("i").summary("0%", "100%", "50%", "-0%").toArray(), [
      ["0%", "1"],
      ["100%", "5"],
      ["50%", "2"],
      ["-0%", "1"],
    ]);
  });

  it("a DECIMAL's percentiles print as Spark's Decimal(double), unless count_distinct is asked", async () => {
    const dec = s.createDataFrame(
      [
        ["1.50", "12345678.10"],
        ["3.25", "100.00"],
        [null, null],
        ["2.00", "0.01"],
        ["2.75", "10000000.00"],
      ],
      "dec DECIMAL(5,2), big DECIMAL(12,2)",
    );
    assert.deepEqual(await dec.summary("10%", "0%", "25%", "50%", "75%", "100%").toArray(), [
      ["10%", "1.5", "0.01"],
      ["0%", "1.5", "0.01"],
      ["25%", "1.5", "0.01"],
      ["50%", "2.0", "100.0"],
      ["75%", "2.75", "10000000"],
      ["100%", "3.25", "12345678.1"],
    ]);
    assert.deepEqual(await dec.summary("COUNT_DISTINCT", "50%", "75%", "100%").toArray(), [
      ["COUNT_DISTINCT", "4", "4"],
      ["50%", "2.00", "100.00"],
      ["75%", "2.75", "10000000.00"],
      ["100%", "3.25", "12345678.10"],
    ]);
  });

  it("NaN and Infinity; a percentile's number read as Java reads a double", async () => {
    const df = s.createDataFrame(
      [
        [1.0, "1.50"],
        [Number.NaN, "2.50"],
        [3.0, null],
        [Number.POSITIVE_INFINITY, "-1.25"],
      ],
      "d DOUBLE, dec DECIMAL(4,2)",
    );
    assert.deepEqual((await df.summary().toArray()).slice(1), [
      ["mean", "NaN", "0.916667"],
      ["stddev", "NaN", "1.9418633662885074"],
      ["min", "1.0", "-1.25"],
      ["25%", "1.0", "-1.25"],
      ["50%", "3.0", "1.5"],
      ["75%", "Infinity", "2.5"],
      ["max", "NaN", "2.50"],
    ]);
    assert.deepEqual(await df.summary("1e1%", " 20 %", "5d%", "50.0%").toArray(), [
      ["1e1%", "1.0", "-1.25"],
      [" 20 %", "1.0", "-1.25"],
      ["5d%", "1.0", "-1.25"],
      ["50.0%", "3.0", "1.5"],
    ]);
  });

  it("no rows; no numeric or STRING column (the statistics alone, unchecked)", async () => {
    assert.deepEqual(await mixed.where("i > 100").summary("count", "count_distinct", "mean", "min", "50%").toArray(), [
      ["count", "0", "0", "0", "0", "0", "0"],
      ["count_distinct", "0", "0", "0", "0", "0", "0"],
      ["mean", null, null, null, null, null, null],
      ["min", null, null, null, null, null, null],
      ["50%", null, null, null, null, null, null],
    ]);
    assert.deepEqual(await table(mixed.select("b").summary("foo", "count")), {
      cols: ["summary"],
      types: ["string"],
      rows: [["foo"], ["count"]],
    });
  });

  it("errors: an unknown statistic, a percentile out of [0, 1], one asked twice, a column whose name has a dot", async () => {
    assert.throws(
      () => mixed.summary("foo"),
      errorClass("UNRECOGNIZED_STATISTIC", /^\[UNRECOGNIZED_STATISTIC\] The statistic 'foo' is not recognized\. Valid statistics include/),
    );
    assert.throws(() => mixed.summary("a%"), errorClass("UNRECOGNIZED_STATISTIC"));
    assert.throws(() => mixed.summary("%"), errorClass("UNRECOGNIZED_STATISTIC"));
    for (const p of ["150%", "-5%", "NaN%"]) {
      assert.throws(() => mixed.summary(p), {
        name: "IllegalArgumentException",
        message: "requirement failed: Percentiles must be in the range [0, 1]",
      });
    }
    await assert.rejects(mixed.summary("count", "count").toArray(), errorClass("DUPLICATED_MAP_KEY"));
    assert.throws(() => s.createDataFrame([[1, 2]], "`a.b` INT, c INT").summary(), errorClass("UNRESOLVED_COLUMN.WITH_SUGGESTION"));
  });
});

describe("df.crosstab", () => {
  const pairs = s.createDataFrame(
    [
      [1, "a", 1.0, true],
      [1, "b", 10.5, null],
      [2, "a", null, false],
      [null, "a", 1.0, true],
      [2, null, 2.0, true],
      [1, "a", 1.0, true],
    ],
    "k INT, s STRING, d DOUBLE, b BOOLEAN",
  );
  const crosstab = async (df: DataFrame, c1: string, c2: string) => {
    const t = await table(await df.crosstab(c1, c2));
    return { ...t, rows: sorted(t.rows) };
  };

  it("counts per pair, 0 for none; NULL as 'null'; col2's values as text in STRING order", async () => {
    assert.deepEqual(await crosstab(pairs, "k", "s"), {
      cols: ["k_s", "a", "b", "null"],
      types: ["string", "bigint", "bigint", "bigint"],
      rows: sorted([
        ["1", 2, 1, 0],
        ["2", 1, 0, 1],
        ["null", 1, 0, 0],
      ]),
    });
    assert.deepEqual(await crosstab(pairs, "s", "k"), {
      cols: ["s_k", "1", "2", "null"],
      types: ["string", "bigint", "bigint", "bigint"],
      rows: sorted([
        ["b", 1, 0, 0],
        ["a", 2, 1, 1],
        ["null", 0, 1, 0],
      ]),
    });
    assert.deepEqual(await crosstab(pairs, "k", "d"), {
      cols: ["k_d", "1.0", "10.5", "2.0", "null"],
      types: ["string", "bigint", "bigint", "bigint", "bigint"],
      rows: sorted([
        ["1", 2, 1, 0, 0],
        ["2", 0, 0, 1, 1],
        ["null", 1, 0, 0, 0],
      ]),
    });
    assert.deepEqual((await crosstab(pairs, "s", "b")).cols, ["s_b", "false", "null", "true"]);
    assert.deepEqual(
      (await crosstab(pairs, "d", "k")).rows,
      sorted([
        ["1.0", 2, 0, 1],
        ["2.0", 0, 1, 0],
        ["null", 0, 1, 0],
        ["10.5", 1, 0, 0],
      ]),
    );
  });

  it("doubles, dates, decimals and arrays as Spark's text; backticks dropped from column names only; code-point order", async () => {
    const doubles = s.createDataFrame(
      [
        [1, 1e7],
        [2, 0.0001],
        [3, -0.0],
        [4, Number.NaN],
        [5, 1.5e-10],
      ],
      "k INT, d DOUBLE",
    );
    assert.deepEqual((await crosstab(doubles, "k", "d")).cols, ["k_d", "-0.0", "1.0E-4", "1.0E7", "1.5E-10", "NaN"]);
    assert.deepEqual(
      (await crosstab(doubles, "d", "k")).rows,
      sorted([
        ["1.0E-4", 0, 1, 0, 0, 0],
        ["-0.0", 0, 0, 1, 0, 0],
        ["1.5E-10", 0, 0, 0, 0, 1],
        ["NaN", 0, 0, 0, 1, 0],
        ["1.0E7", 1, 0, 0, 0, 0],
      ]),
    );
    const other = s.sql("SELECT 1 AS k, DATE'2024-01-02' AS dt, array(1) AS arr, CAST(1 AS DECIMAL(5,2)) AS dec");
    assert.deepEqual(await crosstab(other, "dt", "dec"), {
      cols: ["dt_dec", "1.00"],
      types: ["string", "bigint"],
      rows: [["2024-01-02", 1]],
    });
    assert.deepEqual(await crosstab(other, "k", "arr"), { cols: ["k_arr", "[1]"], types: ["string", "bigint"], rows: [["1", 1]] });
    const ticks = s.createDataFrame(
      [
        ["x`y", "a.b"],
        ["p q", "c`d"],
        ["x`y", ""],
      ],
      "x STRING, y STRING",
    );
    assert.deepEqual(await crosstab(ticks, "x", "y"), {
      cols: ["x_y", "", "a.b", "cd"],
      types: ["string", "bigint", "bigint", "bigint"],
      rows: sorted([
        ["p q", 0, 0, 1],
        ["x`y", 1, 1, 0],
      ]),
    });
    const unicode = s.createDataFrame(
      [
        ["\ue000", 1],
        ["\u{1F600}", 2],
        ["z", 3],
        ["é", 4],
      ],
      "s STRING, k INT",
    );
    assert.deepEqual((await crosstab(unicode, "k", "s")).cols, ["k_s", "z", "é", "\ue000", "\u{1F600}"]);
  });

  it("no rows: the first column only; names kept as written; df.stat.crosstab", async () => {
    assert.deepEqual(await table(await pairs.where("k > 10").crosstab("k", "s")), { cols: ["k_s"], types: ["string"], rows: [] });
    assert.deepEqual((await pairs.stat.crosstab("K", "S")).columns, ["K_S", "a", "b", "null"]);
  });

  it("errors: an unknown column, more than spark.sql.pivotMaxValues values, a stream, a name not a string", async () => {
    await assert.rejects(pairs.crosstab("k", "zz"), errorClass("UNRESOLVED_COLUMN.WITH_SUGGESTION"));
    await assert.rejects(s.range(10001).crosstab("id", "id"), errorClass("_LEGACY_ERROR_TEMP_1324", /has more than 10000 distinct values/));
    const stream = s.memoryStream("v INT").toDF();
    await assert.rejects(
      stream.crosstab("v", "v"),
      errorClass("_LEGACY_ERROR_TEMP_3063", /^pivot is not supported on a streaming DataFrames\/Datasets$/),
    );
    await assert.rejects(pairs.crosstab("k", 1 as unknown as string), {
      message: "[NOT_EXPECTED_TYPE] Argument `col2` should be str, got int.",
    });
  });
});

describe("df.approxQuantile", () => {
  // Python's random.seed(7); [random.randint(0, 1000) for _ in range(200)], the data PySpark ran on
  const values = [
    331, 970, 154, 404, 666, 49, 74, 840, 548, 96, 374, 596, 59, 931, 519, 219, 38, 88, 444, 428, 71, 246, 92, 564, 434, 60, 846, 579, 126,
    970, 228, 645, 642, 596, 970, 63, 590, 599, 406, 50, 999, 226, 47, 570, 879, 136, 296, 429, 147, 553, 120, 584, 315, 573, 835, 698, 185,
    105, 595, 584, 654, 192, 381, 99, 560, 729, 64, 577, 61, 633, 210, 508, 696, 544, 437, 795, 321, 476, 599, 945, 464, 370, 306, 254, 813,
    184, 715, 798, 249, 83, 588, 307, 537, 506, 896, 351, 746, 459, 294, 623, 74, 120, 524, 428, 168, 775, 350, 155, 955, 500, 431, 40, 985,
    684, 79, 782, 571, 586, 808, 896, 837, 321, 348, 711, 358, 608, 508, 593, 816, 467, 70, 860, 95, 967, 276, 485, 713, 680, 66, 62, 748,
    718, 317, 662, 591, 697, 841, 456, 291, 733, 395, 908, 684, 355, 23, 963, 472, 363, 172, 625, 119, 505, 60, 223, 786, 294, 132, 756,
    253, 407, 400, 938, 892, 508, 82, 170, 459, 411, 562, 284, 904, 140, 838, 440, 884, 563, 285, 723, 425, 367, 699, 905, 389, 980, 236,
    154, 84, 180, 154, 237,
  ];
  // b: a * 0.37, NULL on every fifth row
  const df = s.createDataFrame(
    values.map((v, i) => [v, i % 5 ? v * 0.37 : null]),
    "a INT, b DOUBLE",
  );
  const probabilities = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0];

  it("Spark's Greenwald-Khanna answers for relative errors 0 (exact) to 2", async () => {
    const expected: [number, number[], number[][]][] = [
      [
        0,
        [23, 82, 223, 459, 684, 860, 999],
        [
          [459, 306],
          [172.79, 117.28999999999999],
        ],
      ],
      [
        0.01,
        [23, 79, 219, 456, 666, 841, 999],
        [
          [456, 296],
          [169.82999999999998, 113.59],
        ],
      ],
      [
        0.1,
        [23, 23, 172, 425, 595, 999, 999],
        [
          [425, 317],
          [158.73, 118.77],
        ],
      ],
      [
        0.25,
        [23, 23, 23, 228, 999, 999, 999],
        [
          [228, 228],
          [93.61, 93.61],
        ],
      ],
      [
        0.5,
        [23, 23, 23, 23, 999, 999, 999],
        [
          [23, 23],
          [8.51, 8.51],
        ],
      ],
      [
        1,
        [23, 23, 23, 23, 23, 23, 23],
        [
          [23, 23],
          [8.51, 8.51],
        ],
      ],
      [
        2,
        [23, 23, 23, 23, 23, 23, 23],
        [
          [23, 23],
          [8.51, 8.51],
        ],
      ],
    ];
    for (const [relativeError, one, two] of expected) {
      assert.deepEqual(await df.approxQuantile("a", probabilities, relativeError), one, `a at ${relativeError}`);
      assert.deepEqual(await df.stat.approxQuantile(["a", "b"], [0.5, 0.33], relativeError), two, `a, b at ${relativeError}`);
    }
  });

  it("past the summary's compression: 60 000 values", async () => {
    const big = s.range(0, 60000).select(F.col("id").multiply(7919).mod(60007).alias("v"));
    const p = [0.01, 0.1, 0.5, 0.77, 0.99];
    assert.deepEqual(await big.approxQuantile("v", p, 0), [599, 6000, 30003, 46205, 59406]);
    assert.deepEqual(await big.approxQuantile("v", p, 0.001), [614, 6016, 29986, 46153, 59363]);
    assert.deepEqual(await big.approxQuantile("v", p, 0.01), [0, 5564, 29939, 45821, 60006]);
    assert.deepEqual(await big.approxQuantile("v", p, 0.05), [0, 6341, 29709, 44456, 60006]);
  });

  const small = s.createDataFrame(
    [
      [1, 1.0],
      [2, Number.NaN],
      [null, 3.0],
      [4, null],
      [3, 2.0],
    ],
    "x INT, y DOUBLE",
  );

  it("NULL and NaN ignored; a column without values gives []", async () => {
    assert.deepEqual(await small.approxQuantile(["x", "y"], [0.0, 0.5, 1.0], 0.0), [
      [1, 2, 4],
      [1, 2, 3],
    ]);
    assert.deepEqual(await small.where("x > 100").approxQuantile(["x", "y"], [0.5], 0.1), [[], []]);
    // no probabilities: arus's own answer (Spark 4.3 fails with a NullPointerException; docs/differences.md)
    assert.deepEqual(await small.approxQuantile(["x", "y"], [], 0.1), [[], []]);
  });

  it("errors as PySpark's and Spark's", async () => {
    const bad = (p: Promise<unknown>, cls: string, message: string) =>
      assert.rejects(p, (e: Error & { errorClass?: string }) => e.errorClass === cls && e.message === message);
    await bad(
      small.approxQuantile("x", [1.5], 0.1),
      "NOT_EXPECTED_TYPE",
      "[NOT_EXPECTED_TYPE] Argument `probabilities` should be list[float, int], got float.",
    );
    await bad(
      small.approxQuantile("x", [-0.1], 0.1),
      "NOT_EXPECTED_TYPE",
      "[NOT_EXPECTED_TYPE] Argument `probabilities` should be list[float, int], got float.",
    );
    await bad(
      small.approxQuantile("x", [0.5], -0.1),
      "NEGATIVE_VALUE",
      "[NEGATIVE_VALUE] Value for `relativeError` must be greater than or equal to 0, got '-0.1'.",
    );
    await bad(
      small.approxQuantile(1 as unknown as string, [0.5], 0.1),
      "NOT_EXPECTED_TYPE",
      "[NOT_EXPECTED_TYPE] Argument `col` should be list, str or tuple, got int.",
    );
    await bad(
      small.approxQuantile("x", 0.5 as unknown as number[], 0.1),
      "NOT_EXPECTED_TYPE",
      "[NOT_EXPECTED_TYPE] Argument `probabilities` should be list or tuple, got float.",
    );
    await bad(
      small.approxQuantile("x", [0.5], "a" as unknown as number),
      "NOT_EXPECTED_TYPE",
      "[NOT_EXPECTED_TYPE] Argument `relativeError` should be float or int, got str.",
    );
    await assert.rejects(small.approxQuantile("z", [0.5], 0.1), errorClass("UNRESOLVED_COLUMN.WITH_SUGGESTION"));
    await assert.rejects(s.createDataFrame([["a"]], "s STRING").approxQuantile("s", [0.5], 0.1), {
      name: "IllegalArgumentException",
      message: "requirement failed: Quantile calculation for column s with data type StringType is not supported.",
    });
  });
});

describe("df.freqItems", () => {
  const items = s.createDataFrame(
    [
      [1, "a", 1.0],
      [2, "b", 2.0],
      [1, "a", null],
      [3, "c", 1.0],
      [1, null, 1.0],
      [4, "a", 2.0],
      [1, "d", Number.NaN],
      [5, "a", 3.0],
      [null, "e", 1.0],
      [1, "a", -0.0],
      [2, "b", 0.0],
      [6, "f", 4.0],
    ],
    "k INT, s STRING, d DOUBLE",
  );
  /** Items in a fixed order (Spark's is its hash map's): NULL last, -0.0 told from 0.0. */
  const byText = (xs: unknown[]) =>
    xs
      .map((x) => (Object.is(x, -0) ? "-0.0" : x))
      .sort((a, b) => (a === null ? 1 : b === null ? -1 : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
  const frequent = async (df: DataFrame) => ((await df.toArray())[0] as unknown[][]).map(byText);

  it("Spark's counter of floor(1 / support) items: NULL an item, -0.0 equal to 0.0, each NaN on its own", async () => {
    const expected: [number | undefined, unknown[][]][] = [
      [
        undefined,
        [
          [1, 2, 3, 4, 5, 6, null],
          ["a", "b", "c", "d", "e", "f", null],
          ["-0.0", 1, 2, 3, 4, Number.NaN, null],
        ],
      ],
      [0.5, [[1, 6], ["a", "f"], []]],
      [0.4, [[1, 6], ["a", "f"], []]],
      [
        0.3,
        [
          [1, 6],
          ["a", "f"],
          [0, 1, 4],
        ],
      ],
      [
        0.25,
        [
          [1, 2, 6, null],
          ["a", "b", "e", "f"],
          ["-0.0", 1, 2, 4],
        ],
      ],
      [
        0.2,
        [
          [1, 2, 6],
          ["a", "b", "f"],
          [0, 1, 2, 4],
        ],
      ],
    ];
    for (const [support, want] of expected) {
      const df = items.freqItems(["k", "s", "d"], support);
      assert.deepEqual(df.columns, ["k_freqItems", "s_freqItems", "d_freqItems"]);
      assert.deepEqual(
        df.dtypes.map(([, t]) => t),
        ["array<int>", "array<string>", "array<double>"],
      );
      assert.deepEqual(await frequent(df), want, `support ${support}`);
    }
    assert.deepEqual(await frequent(items.freqItems(["k"], 0)), [[1, 2, 3, 4, 5, 6, null]]); // 0: PySpark's default
    const nan = s.createDataFrame([[Number.NaN], [Number.NaN], [1.0], [Number.NaN]], "d DOUBLE");
    assert.deepEqual(await frequent(nan.freqItems(["d"], 0.5)), [[Number.NaN]]);
    assert.deepEqual(await frequent(nan.select(F.col("d").cast("float").alias("d")).freqItems(["d"], 0.5)), [[Number.NaN]]);
  });

  it("false positives as Spark's: the items that last entered the counter", async () => {
    const v = s.createDataFrame(
      [1, 1, 1, 2, 2, 3, 4, 5, 1, 6, 7, 1, 8, 9, 1, 1].map((x) => [x]),
      "v INT",
    );
    const expected: [number, number[]][] = [
      [0.5, [1, 9]],
      [0.34, [1, 9]],
      [0.25, [1, 9]],
      [0.2, [1, 2, 7, 8, 9]],
      [0.15, [1, 2, 8, 9]],
      [0.1, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    ];
    for (const [support, want] of expected)
      assert.deepEqual(await frequent(v.stat.freqItems(["v"], support)), [want], `support ${support}`);
  });

  it("arrays, no rows, no columns", async () => {
    assert.deepEqual(await items.select(F.array("k").alias("arr")).freqItems(["arr"], 0.3).toArray(), [[[[1], [6]]]]);
    assert.deepEqual(await items.where("k > 100").freqItems(["k", "s"]).toArray(), [[[], []]]);
    assert.deepEqual(items.freqItems([], 0.3).columns, []);
  });

  it("errors: support outside [1e-4, 1], cols not a list, an unknown column", () => {
    assert.throws(() => items.freqItems(["k"], 0.00001), { message: "requirement failed: Support must be in [1e-4, 1], but got 1.0E-5." });
    assert.throws(() => items.freqItems(["k"], 1.5), { message: "requirement failed: Support must be in [1e-4, 1], but got 1.5." });
    assert.throws(() => items.freqItems("k" as unknown as string[], 0.3), {
      message: "[NOT_EXPECTED_TYPE] Argument `cols` should be list or tuple, got str.",
    });
    assert.throws(() => items.freqItems(["zz"], 0.3), errorClass("UNRESOLVED_COLUMN.WITH_SUGGESTION"));
  });
});

describe("df.corr / df.cov as Spark's StatFunctions", () => {
  const df = s.createDataFrame(
    [
      [1, 2.0],
      [2, null],
      [null, 5.0],
      [4, 3.0],
      [5, 9.5],
    ],
    "a INT, b DOUBLE",
  );

  it("a NULL read as 0.0; corr NaN and cov 0.0 where undefined; df.stat the same", async () => {
    assert.equal(await df.corr("a", "b"), 0.4905890605212549);
    assert.equal(await df.cov("a", "b"), 3.675);
    assert.equal(await df.stat.corr("a", "b"), 0.4905890605212549);
    assert.equal(await df.stat.cov("a", "b"), 3.675);
    for (const none of [
      df.where("a > 100"),
      df.limit(1),
      s.createDataFrame(
        [
          [1, 2.0],
          [1, 3.0],
        ],
        "a INT, b DOUBLE",
      ),
    ]) {
      assert.ok(Number.isNaN(await none.corr("a", "b")));
      assert.equal(await none.cov("a", "b"), 0);
    }
  });

  it("errors: a non-numeric column, a method other than pearson, an unknown column, a name not a string", async () => {
    const text = s.createDataFrame([[1, "2"]], "a INT, b STRING");
    await assert.rejects(async () => text.corr("a", "b"), {
      message: "requirement failed: Currently correlation calculation for columns with dataType string not supported.",
    });
    await assert.rejects(async () => text.cov("a", "b"), {
      message: "requirement failed: Currently covariance calculation for columns with dataType string not supported.",
    });
    await assert.rejects(async () => df.corr("a", "b", "spearman"), errorClass("VALUE_NOT_ALLOWED", /\['pearson'\]\.$/));
    await assert.rejects(async () => df.corr("a", "zz"), errorClass("UNRESOLVED_COLUMN.WITH_SUGGESTION"));
    await assert.rejects(async () => df.corr("a", 1 as unknown as string), {
      message: "[NOT_EXPECTED_TYPE] Argument `col2` should be str, got int.",
    });
  });
});

describe("df.na after a projection", () => {
  it("fill and replace reach columns an aggregate or a select made", async () => {
    const df = s.createDataFrame(
      [
        [1, null],
        [2, 3],
      ],
      "k INT, x INT",
    );
    assert.deepEqual(await df.groupBy("k").agg(F.max("x").alias("m")).na.fill(0).orderBy("k").toArray(), [
      [1, 0],
      [2, 3],
    ]);
    const y = df.select("k", F.col("x").plus(1).alias("y"));
    assert.deepEqual(await y.na.fill(0).orderBy("k").toArray(), [
      [1, 0],
      [2, 4],
    ]);
    assert.deepEqual(await y.na.replace(4, 40).orderBy("k").toArray(), [
      [1, null],
      [2, 40],
    ]);
  });
});
