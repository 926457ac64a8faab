/**
 * __poisson_sample(fraction[, seed]): how many times df.sample(withReplacement = true, ...)
 * repeats each row, a Poisson(fraction) draw per row (Spark's PoissonSampler) from the seeded
 * generator rand() uses. The same seed gives the same counts; not Spark's counts (Spark draws per
 * partition with commons-math's generator). Internal: the `__` prefix keeps it from being moved
 * past a filter (optimizer/push-down-predicates.ts treats such calls as volatile).
 */
import { getValue, vectorFromValues } from "../columnar/vector.js";
import { IntegerType } from "../types/datatypes.js";
import { checkSeed, generatorFor, seedOf, type XorShiftRandom } from "./random.js";
import { register, type ScalarFunction } from "./registry.js";

/** Above this mean, a rounded normal draw stands in for the exact one (whose e^-λ underflows near 745). */
const EXACT_UP_TO = 64;

/** One Poisson(λ) draw: inverse transform over the CDF, or N(λ, λ) rounded for a large λ. */
export function poissonDraw(g: XorShiftRandom, lambda: number): number {
  if (lambda <= 0) return 0;
  if (lambda > EXACT_UP_TO) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * g.nextGaussian()));
  const u = g.nextDouble();
  let k = 0;
  let p = Math.exp(-lambda);
  let cdf = p;
  while (u > cdf && p > 0) {
    k++;
    p *= lambda / k;
    cdf += p;
  }
  return k;
}

const poissonSample: ScalarFunction = {
  kind: "scalar",
  name: "__poisson_sample",
  resolve: (args, types, call) => ({
    args: [args[0]!, ...checkSeed("__poisson_sample", args.slice(1), types.slice(1), call, 0)],
    type: IntegerType,
  }),
  kernel(args, n, ctx) {
    const lambda = Number(getValue(args[0]!, 0));
    const seed = seedOf(args, 1, ctx);
    const g = generatorFor(ctx, `__poisson_sample:${lambda}:${seed}`, seed);
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = poissonDraw(g, lambda);
    return vectorFromValues(IntegerType, out);
  },
  foldable: false,
};

register(poissonSample);
