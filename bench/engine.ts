/**
 * Engine micro-benchmarks (issue 2): group-by count+sum over 10 M in-memory rows with 1 000
 * keys, and a filter + project, on one core; a DECIMAL(12,2) sum, global and per key (issue 17). Data is built as column vectors directly so the
 * figures measure the engine, not object conversion.
 */
import { type Batch, makeBatch } from "../src/columnar/batch.js";
import { makeVector } from "../src/columnar/vector.js";
import { DataFrame, functions as F, Session } from "../src/index.js";
import { attribute } from "../src/plan/expressions.js";
import { Plans } from "../src/plan/logical.js";
import { DoubleType, IntegerType } from "../src/types/datatypes.js";
import { DecimalOf } from "../src/types/decimal.js";

export interface BenchResult {
  name: string;
  rows: number;
  ms: number;
  rowsPerSec: number;
}

/**
 * `v` is DOUBLE in [0, 100), or with `decimal` the same values as DECIMAL(12,2) (their unscaled
 * cents in the Float64Array, as the engine holds DECIMAL up to 15 digits).
 */
function dataset(session: Session, rows: number, keys: number, decimal = false): DataFrame {
  const vType = decimal ? DecimalOf(12, 2) : DoubleType;
  const batchRows = 65_536;
  const batches: Batch[] = [];
  let seed = 42;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  for (let off = 0; off < rows; off += batchRows) {
    const n = Math.min(batchRows, rows - off);
    const k = new Int32Array(n);
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      k[i] = Math.floor(rand() * keys);
      v[i] = decimal ? Math.floor(rand() * 10_000) : rand() * 100;
    }
    batches.push(makeBatch([makeVector(IntegerType, k, null, n), makeVector(vType, v, null, n)], n));
  }
  const output = [attribute("k", IntegerType, false), attribute("v", vType, false)];
  return new DataFrame(session, Plans.localRelation(output, batches));
}

async function time(name: string, rows: number, fn: () => Promise<unknown>, repeat = 3): Promise<BenchResult> {
  await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  const ms = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  return { name, rows, ms, rowsPerSec: rows / (ms / 1000) };
}

export async function engineBenchmarks(rows = 10_000_000): Promise<BenchResult[]> {
  const session = Session.builder().getOrCreate();
  const df = dataset(session, rows, 1000);
  const results: BenchResult[] = [];
  results.push(await time("group-by count+sum, 1 000 keys", rows, () => df.groupBy("k").agg(F.count("*"), F.sum("v")).executeBatches()));
  results.push(
    await time("filter + project", rows, () => df.filter(F.col("v").gt(50)).select(F.col("k"), F.col("v").multiply(2)).executeBatches()),
  );
  results.push(...(await decimalBenchmarks(rows, session)));
  return results;
}

/** sum over a DECIMAL(12,2) column (issue 17's target: >= 20 M rows/s at 10 M rows). */
export async function decimalBenchmarks(rows = 10_000_000, session = Session.builder().getOrCreate()): Promise<BenchResult[]> {
  const df = dataset(session, rows, 1000, true);
  return [
    await time("decimal(12,2) sum", rows, () => df.agg(F.sum("v")).executeBatches()),
    await time("decimal(12,2) group-by sum, 1 000 keys", rows, () => df.groupBy("k").agg(F.sum("v")).executeBatches()),
  ];
}
