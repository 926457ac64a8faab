/**
 * Seeded randomness as Spark's: rand / random, randn, uniform and shuffle draw from Spark's
 * XORShiftRandom (the seed scrambled by Scala's MurmurHash3, Java's nextDouble / nextGaussian /
 * nextInt on top), one generator per call site's seed for the whole execution of a query or
 * micro-batch, so row i of a single-partition input gets the value Spark gives row i of
 * partition 0. Where Spark itself is not deterministic (no seed; several partitions) only the
 * distribution agrees. Two calls with the same seed in one query share one sequence (Spark
 * gives each its own copy). monotonically_increasing_id counts rows the same way (partition 0),
 * spark_partition_id is 0 and uuid is a random version-4 UUID (with a seed, Spark's sequence:
 * mersenne-twister.ts).
 */
import { randomUUID } from "node:crypto";
import { currentInputFile } from "../columnar/input-file.js";
import { constantVector, getValue, type Vector, vectorFromValues } from "../columnar/vector.js";
import { AnalysisException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { exprToSql } from "../plan/sql-text.js";
import type { DataType } from "../types/datatypes.js";
import { DoubleType, IntegerType, LongType, StringType } from "../types/datatypes.js";
import { MersenneTwister } from "./mersenne-twister.js";
import { castTo, checkArity, type EvalContext, register, registerAlias, type ScalarFunction, typeMismatch } from "./registry.js";

const M64 = (1n << 64n) - 1n;

/** Scala's MurmurHash3.bytesHash over whole 4-byte little-endian words (8 bytes: no tail). */
function scalaBytesHash(bytes: Uint8Array, seed: number): number {
  let h = seed;
  for (let i = 0; i + 4 <= bytes.length; i += 4) {
    let k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= bytes.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Spark's XORShiftRandom: a java.util.Random whose next(bits) is an xorshift over a hashed seed. */
export class XorShiftRandom {
  private seed: bigint;
  private nextGaussianValue: number | null = null;
  constructor(init: bigint) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigInt64(0, BigInt.asIntN(64, init)); // big-endian, as ByteBuffer.putLong
    const low = scalaBytesHash(bytes, 0x3c074a61);
    const high = scalaBytesHash(bytes, low);
    this.seed = ((BigInt(high) << 32n) | (BigInt(low) & 0xffffffffn)) & M64;
  }
  next(bits: number): number {
    let s = this.seed;
    s ^= (s << 21n) & M64;
    s ^= s >> 35n;
    s ^= (s << 4n) & M64;
    this.seed = s;
    return Number(BigInt.asIntN(32, s & ((1n << BigInt(bits)) - 1n)));
  }
  nextDouble(): number {
    return (this.next(26) * 2 ** 27 + this.next(27)) * 2 ** -53;
  }
  nextInt(bound: number): number {
    if ((bound & -bound) === bound) return Number((BigInt(bound) * BigInt(this.next(31))) >> 31n);
    for (;;) {
      const bits = this.next(31);
      const val = bits % bound;
      if (bits - val + (bound - 1) <= 0x7fffffff) return val;
    }
  }
  /** java.util.Random's polar method, the second value of each pair kept for the next call. */
  nextGaussian(): number {
    if (this.nextGaussianValue !== null) {
      const g = this.nextGaussianValue;
      this.nextGaussianValue = null;
      return g;
    }
    let v1: number;
    let v2: number;
    let s: number;
    do {
      v1 = 2 * this.nextDouble() - 1;
      v2 = 2 * this.nextDouble() - 1;
      s = v1 * v1 + v2 * v2;
    } while (s >= 1 || s === 0);
    const multiplier = Math.sqrt((-2 * Math.log(s)) / s);
    this.nextGaussianValue = v2 * multiplier;
    return v1 * multiplier;
  }
}

/** Generators live as long as the execution's EvalContext: chunks of one execution continue one sequence. */
const generators = new WeakMap<EvalContext, Map<string | object, XorShiftRandom>>();
export function generatorFor(ctx: EvalContext, key: string | object, seed: bigint): XorShiftRandom {
  let m = generators.get(ctx);
  if (!m) generators.set(ctx, (m = new Map()));
  let g = m.get(key);
  if (!g) m.set(key, (g = new XorShiftRandom(seed)));
  return g;
}
const counters = new WeakMap<EvalContext, number>();

export function randomSeed(): bigint {
  return BigInt.asIntN(64, BigInt(Math.floor(Math.random() * 2 ** 53)) * 2048n + BigInt(Math.floor(Math.random() * 2048)));
}

/** The seed argument's value (a literal; NULL is 0), or one random seed per execution when none was given. */
export function seedOf(args: readonly Vector[], index: number, ctx: EvalContext): bigint {
  const a = args[index];
  if (!a) return randomSeedFor(ctx);
  const v = getValue(a, 0);
  return v === null ? 0n : BigInt(v as number | bigint);
}
const unseeded = new WeakMap<EvalContext, bigint>();
function randomSeedFor(ctx: EvalContext): bigint {
  let s = unseeded.get(ctx);
  if (s === undefined) unseeded.set(ctx, (s = randomSeed()));
  return s;
}

/** The seed argument at `index`: absent, NULL, or an INT / BIGINT (Spark requires a literal). */
export function checkSeed(name: string, args: readonly Expr[], types: readonly DataType[], call: Expr, index: number): Expr[] {
  checkArity(name, args, index, index + 1);
  const t = types[index];
  if (t && t.kind !== "int" && t.kind !== "bigint" && t.kind !== "null") {
    throw typeMismatch(call, index, '("INT" or "BIGINT")', args[index]!, t);
  }
  return [...args];
}

function draw(name: string, pick: (g: XorShiftRandom) => number): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve: (args, types, call) => ({ args: checkSeed(name, args, types, call, 0), type: DoubleType }),
    kernel(args, n, ctx, site) {
      const seed = seedOf(args, 0, ctx);
      const g = generatorFor(ctx, site ?? `${name}:${seed}`, seed);
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = pick(g);
      return vectorFromValues(DoubleType, out);
    },
    foldable: false,
  };
}

const monotonicallyIncreasingId: ScalarFunction = {
  kind: "scalar",
  name: "monotonically_increasing_id",
  resolve: (args) => {
    checkArity("monotonically_increasing_id", args, 0);
    return { args, type: LongType };
  },
  kernel(_args, n, ctx) {
    const start = counters.get(ctx) ?? 0;
    counters.set(ctx, start + n);
    return vectorFromValues(
      LongType,
      Array.from({ length: n }, (_, i) => start + i),
    );
  },
  foldable: false,
};

const sparkPartitionId: ScalarFunction = {
  kind: "scalar",
  name: "spark_partition_id",
  resolve: (args) => {
    checkArity("spark_partition_id", args, 0);
    return { args, type: IntegerType };
  },
  kernel: (_args, n) => vectorFromValues(IntegerType, new Int32Array(n)),
  foldable: false,
};

/** input_file_name(): the URI of the file the row was read from, "" where unknown (columnar/input-file.ts). */
const inputFileName: ScalarFunction = {
  kind: "scalar",
  name: "input_file_name",
  resolve: (args) => {
    checkArity("input_file_name", args, 0);
    return { args, type: StringType };
  },
  kernel: (_args, n) => constantVector(StringType, currentInputFile(), n),
  foldable: false,
};

/**
 * uuid([seed]): a version-4 UUID per row; with a seed, Spark's sequence for it (a Mersenne
 * Twister per execution, as Spark's RandomUUIDGenerator per partition), NULL meaning none.
 */
const uuid: ScalarFunction = {
  kind: "scalar",
  name: "uuid",
  resolve: (args, types) => {
    checkArity("uuid", args, 0, 1);
    const seed = args[0];
    if (seed !== undefined && !(seed.kind === "literal" && ["int", "bigint", "null"].includes(types[0]!.kind))) {
      const shown = seed.kind === "literal" && typeof seed.value === "string" ? seed.value : exprToSql(seed);
      throw new AnalysisException(
        "INVALID_PARAMETER_VALUE.LONG",
        `[INVALID_PARAMETER_VALUE.LONG] The value of parameter(s) \`seed\` in \`UUID\` is invalid: expects a long literal, but got "${shown}".`,
      );
    }
    return { args, type: StringType };
  },
  kernel: (args, n, ctx, site) => {
    const seed = args[0] === undefined ? null : (getValue(args[0], 0) as number | bigint | null);
    if (seed === null)
      return vectorFromValues(
        StringType,
        Array.from({ length: n }, () => randomUUID()),
      );
    const g = twisterFor(ctx, site ?? BigInt(seed), BigInt(seed));
    return vectorFromValues(
      StringType,
      Array.from({ length: n }, () => seededUuid(g)),
    );
  },
  foldable: false,
};

const twisters = new WeakMap<EvalContext, Map<bigint | object, MersenneTwister>>();
function twisterFor(ctx: EvalContext, key: bigint | object, seed: bigint): MersenneTwister {
  let m = twisters.get(ctx);
  if (!m) twisters.set(ctx, (m = new Map()));
  let g = m.get(key);
  if (!g) m.set(key, (g = new MersenneTwister(seed)));
  return g;
}

const VERSION_MASK = BigInt.asIntN(64, 0xffffffffffff0fffn);
const VARIANT_MASK = BigInt.asIntN(64, 0xbfffffffffffffffn);
const VARIANT_BIT = BigInt.asIntN(64, 0x8000000000000000n);

/** Two longs made a version-4, IETF-variant UUID, as java.util.UUID prints it. */
function seededUuid(g: MersenneTwister): string {
  const most = BigInt.asUintN(64, (g.nextLong() & VERSION_MASK) | 0x4000n)
    .toString(16)
    .padStart(16, "0");
  const least = BigInt.asUintN(64, (g.nextLong() | VARIANT_BIT) & VARIANT_MASK)
    .toString(16)
    .padStart(16, "0");
  return `${most.slice(0, 8)}-${most.slice(8, 12)}-${most.slice(12)}-${least.slice(0, 4)}-${least.slice(4)}`;
}

register(
  draw("rand", (g) => g.nextDouble()),
  draw("randn", (g) => g.nextGaussian()),
  monotonicallyIncreasingId,
  sparkPartitionId,
  inputFileName,
  uuid,
);
registerAlias("random", "rand");

/** shuffle(array[, seed]): a Fisher-Yates permutation drawn as Spark's RandomIndicesGenerator. */
const shuffle: ScalarFunction = {
  kind: "scalar",
  name: "shuffle",
  resolve(args, types, call) {
    if (types[0]?.kind !== "array") {
      checkArity("shuffle", args, 1, 2);
      throw typeMismatch(call, 0, '"ARRAY"', args[0]!, types[0]!);
    }
    return { args: checkSeed("shuffle", args, types, call, 1), type: types[0] };
  },
  kernel(args, n, ctx, site) {
    const seed = seedOf(args, 1, ctx);
    const g = generatorFor(ctx, site ?? `shuffle:${seed}`, seed);
    const out = new Array<unknown[] | null>(n);
    for (let i = 0; i < n; i++) {
      const arr = getValue(args[0]!, i) as unknown[] | null;
      if (arr === null) {
        out[i] = null;
        continue;
      }
      const idx = Array.from(arr, (_, k) => k);
      for (let k = idx.length - 1; k >= 1; k--) {
        const j = g.nextInt(k + 1);
        [idx[k], idx[j]] = [idx[j]!, idx[k]!];
      }
      out[i] = idx.map((k) => arr[k]);
    }
    return vectorFromValues(args[0]!.type, out);
  },
  foldable: false,
};
register(shuffle);

/** uniform(min, max[, seed]): min + (max - min) * rand(seed); INT / BIGINT bounds give a truncated integer. */
const uniform: ScalarFunction = {
  kind: "scalar",
  name: "uniform",
  resolve(args, types, call) {
    checkSeed("uniform", args, types, call, 2);
    const [a, b] = types as [DataType, DataType];
    const integral = (t: DataType) => t.kind === "int" || t.kind === "bigint" || t.kind === "tinyint" || t.kind === "smallint";
    const type = integral(a) && integral(b) ? (a.kind === "bigint" || b.kind === "bigint" ? LongType : IntegerType) : DoubleType;
    const bound = (i: number) => (type.kind === "double" ? castTo(args[i]!, types[i]!, DoubleType) : castTo(args[i]!, types[i]!, type));
    return { args: [bound(0), bound(1), ...args.slice(2)], type };
  },
  kernel(args, n, ctx, site) {
    const seed = seedOf(args, 2, ctx);
    const type = args[0]!.type;
    const lo = getValue(args[0]!, 0);
    const hi = getValue(args[1]!, 0);
    const g = generatorFor(ctx, site ?? `uniform:${seed}:${lo}:${hi}`, seed);
    const out = Array.from({ length: n }, () => {
      const r = g.nextDouble();
      if (lo === null || hi === null) return null;
      const v = Number(lo) + (Number(hi) - Number(lo)) * r;
      return type.kind === "double" ? v : Math.trunc(v);
    });
    return vectorFromValues(type, out);
  },
  foldable: false,
};
register(uniform);
