// Issue 17: BIGINT kernels agree with BigInt arithmetic over the whole 64-bit range, with
// Spark's LONG semantics (ANSI: overflow is an error; legacy: Java's wrap), on random values
// that hit the edges (±2^53 ± 1, ±2^63 − 1, −2^63) — through the engine, both vector lanes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { functions as F, Session } from "../../src/index.js";

const s = Session.builder().appName("bigint-props").config("spark.sql.session.timeZone", "UTC").getOrCreate();

const LONG_MAX = 2n ** 63n - 1n;
const LONG_MIN = -(2n ** 63n);
const SAFE = 2n ** 53n - 1n;
const EDGES = [
  0n,
  1n,
  -1n,
  2n,
  SAFE,
  SAFE + 1n,
  SAFE + 2n,
  -SAFE,
  -SAFE - 1n,
  -SAFE - 2n,
  LONG_MAX,
  LONG_MAX - 1n,
  LONG_MIN,
  LONG_MIN + 1n,
  3037000499n,
  -3037000500n,
  // int32's edges: the remainder's integer fast path hands over to the double loop past them
  2147483647n,
  2147483648n,
  -2147483648n,
  -2147483649n,
];
const long = fc.oneof(
  fc.constantFrom(...EDGES),
  fc.bigInt({ min: LONG_MIN, max: LONG_MAX }),
  fc.bigInt({ min: -(2n ** 55n), max: 2n ** 55n }),
  fc.integer({ min: -1000, max: 1000 }).map(BigInt),
);
const val = fc.option(long, { nil: null, freq: 6 });
type R = { x: bigint | null; y: bigint | null };
const rows = fc.array(fc.record({ x: val, y: val }), { minLength: 1, maxLength: 30 });

/** What collect() gives: a number while the value is a safe integer, else the bigint. */
const canon = (b: bigint): number | bigint => (b >= -SAFE && b <= SAFE ? Number(b) : b);

class Overflow extends Error {
  constructor(readonly errorClass: string) {
    super(errorClass);
  }
}
const fit = (r: bigint, ansi: boolean): bigint => {
  if (r >= LONG_MIN && r <= LONG_MAX) return r;
  if (ansi) throw new Overflow("ARITHMETIC_OVERFLOW");
  return BigInt.asIntN(64, r);
};
/** Spark: `div` by zero is DIVIDE_BY_ZERO, `%` and `pmod` by zero REMAINDER_BY_ZERO. */
const divisor = (y: bigint, ansi: boolean, errorClass = "DIVIDE_BY_ZERO"): boolean => {
  if (y !== 0n) return true;
  if (ansi) throw new Overflow(errorClass);
  return false;
};

type Ref = (x: bigint, y: bigint, ansi: boolean) => unknown;
const binary: [string, Ref][] = [
  ["x + y", (x, y, a) => canon(fit(x + y, a))],
  ["x - y", (x, y, a) => canon(fit(x - y, a))],
  ["x * y", (x, y, a) => canon(fit(x * y, a))],
  ["x div y", (x, y, a) => (divisor(y, a) ? canon(fit(x / y, a)) : null)],
  ["x % y", (x, y, a) => (divisor(y, a, "REMAINDER_BY_ZERO") ? canon(x % y) : null)],
  ["pmod(x, y)", (x, y, a) => (divisor(y, a, "REMAINDER_BY_ZERO") ? canon(x % y < 0n ? ((x % y) + y) % y : x % y) : null)],
  ["-x", (x, _y, a) => canon(fit(-x, a))],
  ["x < y", (x, y) => x < y],
  ["x <= y", (x, y) => x <= y],
  ["x = y", (x, y) => x === y],
  ["x > y", (x, y) => x > y],
  ["CAST(x AS STRING)", (x) => x.toString()],
  ["CAST(CAST(x AS STRING) AS BIGINT)", (x) => canon(x)],
  ["CAST(x AS DOUBLE)", (x) => Number(x)],
  [
    "CAST(x AS INT)",
    (x, _y, a) => {
      if (x >= -(2n ** 31n) && x < 2n ** 31n) return Number(x);
      if (a) throw new Overflow("CAST_OVERFLOW");
      return Number(BigInt.asIntN(32, x));
    },
  ],
];

/** The reference column, or the error class of the first failing row (rows run in order). */
function reference(rs: readonly R[], ref: Ref, ansi: boolean, unary: boolean): unknown[] | Overflow {
  try {
    return rs.map((r) => (r.x === null || (!unary && r.y === null) ? null : ref(r.x, r.y ?? 0n, ansi)));
  } catch (e) {
    if (e instanceof Overflow) return e;
    throw e;
  }
}

async function check(sql: string, rs: readonly R[], ref: Ref, ansi: boolean): Promise<void> {
  s.conf.set("spark.sql.ansi.enabled", String(ansi));
  const want = reference(rs, ref, ansi, !sql.includes("y"));
  const run = s
    .createDataFrame(rs as R[], "x BIGINT, y BIGINT")
    .select(F.expr(sql).alias("r"))
    .collect();
  if (want instanceof Overflow) {
    await assert.rejects(run, (e: { errorClass?: string }) => e.errorClass === want.errorClass);
    return;
  }
  assert.deepEqual(
    (await run).map((o) => o.r),
    want,
  );
}

describe("BIGINT kernels agree with BigInt arithmetic (both lanes, edges included)", () => {
  for (const ansi of [true, false]) {
    for (const [sql, ref] of binary) {
      it(`${sql} (${ansi ? "ANSI" : "legacy"})`, async () => {
        await fc.assert(
          fc.asyncProperty(rows, (rs) => check(sql, rs, ref, ansi)),
          { numRuns: 60 },
        );
      });
    }
  }
});

describe("x % y over columns without NULLs (long-ops' remainder loop for safe operands, then the general one)", () => {
  const noNulls = fc.array(fc.record({ x: long, y: long }), { minLength: 1, maxLength: 30 });
  const rem = binary.find(([sql]) => sql === "x % y")![1];
  for (const ansi of [true, false]) {
    it(`x % y (${ansi ? "ANSI" : "legacy"})`, async () => {
      await fc.assert(
        fc.asyncProperty(noNulls, (rs) => check("x % y", rs, rem, ansi)),
        { numRuns: 80 },
      );
    });
  }
});

describe("greatest (NULLs skipped) compares exactly across number and bigint", () => {
  it("greatest(x, y)", async () => {
    s.conf.set("spark.sql.ansi.enabled", "true");
    await fc.assert(
      fc.asyncProperty(rows, async (rs) => {
        const out = await s
          .createDataFrame(rs as R[], "x BIGINT, y BIGINT")
          .select(F.expr("greatest(x, y)").alias("r"))
          .collect();
        // biome-ignore lint/complexity/useMathMinMax: the values may be bigint, which Math.max refuses
        const want = rs.map((r) => (r.x === null ? r.y : r.y === null ? r.x : r.x > r.y ? r.x : r.y));
        assert.deepEqual(
          out.map((o) => o.r),
          want.map((w) => (w === null ? null : canon(w))),
        );
      }),
      { numRuns: 60 },
    );
  });
});

describe("grouping, joins, distinct and sum on BIGINT keys are exact across lanes", () => {
  // `safe` holds only safe integers (the double lane), `all` any value (the wide lane as soon as
  // one value needs it): equal values must meet whatever lane they came in.
  const key = (b: bigint | null): string => (b === null ? "null" : b.toString());
  const split = (rs: readonly R[]) => ({
    safe: rs.filter((r) => r.x === null || (r.x >= -SAFE && r.x <= SAFE)),
    all: rs,
  });

  it("groupBy(x).count() over a union of both lanes", async () => {
    s.conf.set("spark.sql.ansi.enabled", "true");
    await fc.assert(
      fc.asyncProperty(rows, async (rs) => {
        const { safe, all } = split(rs);
        const df = s.createDataFrame(safe as R[], "x BIGINT, y BIGINT").unionAll(s.createDataFrame(all as R[], "x BIGINT, y BIGINT"));
        const got = new Map(
          (await df.groupBy("x").count().collect()).map((r) => [key(r.x === null ? null : BigInt(r.x as number | bigint)), r.count]),
        );
        const want = new Map<string, number>();
        for (const r of [...safe, ...all]) want.set(key(r.x), (want.get(key(r.x)) ?? 0) + 1);
        assert.deepEqual(got, want);
      }),
      { numRuns: 60 },
    );
  });

  it("inner join on x and distinct", async () => {
    s.conf.set("spark.sql.ansi.enabled", "true");
    await fc.assert(
      fc.asyncProperty(rows, async (rs) => {
        const { safe, all } = split(rs);
        const left = s.createDataFrame(all as R[], "x BIGINT, y BIGINT");
        const right = s.createDataFrame(safe as R[], "x BIGINT, y BIGINT").select(F.col("x"), F.col("y").alias("z"));
        const joined = await left.join(right, "x").count();
        let want = 0;
        for (const a of all) for (const b of safe) if (a.x !== null && a.x === b.x) want++;
        assert.equal(joined, want);
        const distinct = await left.select("x").distinct().count();
        assert.equal(distinct, new Set(all.map((r) => key(r.x))).size);
      }),
      { numRuns: 60 },
    );
  });

  for (const ansi of [true, false]) {
    it(`sum(x) (${ansi ? "ANSI: an overflowing step is an error" : "legacy: wraps"})`, async () => {
      await fc.assert(
        fc.asyncProperty(rows, async (rs) => {
          s.conf.set("spark.sql.ansi.enabled", String(ansi));
          const run = s
            .createDataFrame(rs as R[], "x BIGINT, y BIGINT")
            .agg(F.sum("x").alias("s"))
            .collect();
          let acc: bigint | null = null;
          let overflow = false;
          for (const r of rs) {
            if (r.x === null) continue;
            const next: bigint = (acc ?? 0n) + r.x;
            if (next > LONG_MAX || next < LONG_MIN) overflow = true;
            acc = BigInt.asIntN(64, next);
          }
          if (ansi && overflow) {
            await assert.rejects(run, (e: { errorClass?: string }) => e.errorClass === "ARITHMETIC_OVERFLOW");
            return;
          }
          assert.deepEqual(await run, [{ s: acc === null ? null : canon(acc) }]);
        }),
        { numRuns: 60 },
      );
    });
  }
});
