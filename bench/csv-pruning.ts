/**
 * CSV column pruning (optimizer/prune-columns.ts `prunedCsv`): a batch CSV read converting only
 * the columns the query reads, against the same read with the ColumnPruning rule excluded
 * (`spark.sql.optimizer.excludedRules`: every column converted, as arus did before). A file of
 * `--rows` records and eight columns (BIGINT, two STRINGs, DOUBLE, INT, BOOLEAN, TIMESTAMP,
 * STRING) is written to a temp directory; three queries run alternately on both sessions:
 * a one-column group-by, `count()`, and a group-by reading four columns.
 *
 *   node --expose-gc --import tsx bench/csv-pruning.ts [--rows 1000000] [--rounds 5]
 *
 * Prints the median ms of each query and variant, and the ratio.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DataFrame, Session } from "../src/index.js";

const argv = process.argv.slice(2);
const get = (k: string) => (argv.indexOf(k) >= 0 ? argv[argv.indexOf(k) + 1] : undefined);
const rows = Number(get("--rows") ?? 1_000_000);
const rounds = Number(get("--rounds") ?? 5);

const dir = mkdtempSync(join(tmpdir(), "arus-bench-csv-"));
const file = join(dir, "data.csv");
const lines = ["id,city,amount,qty,flag,code,ts,note"];
for (let i = 0; i < rows; i++) {
  const amount = ((i * 7919) % 100_000) / 100;
  lines.push(
    `${i},c${i % 50},${amount},${i % 7},${i % 2 === 1},K${i % 997},2024-01-01 00:${String(i % 60).padStart(2, "0")}:00,note${i % 13}`,
  );
}
writeFileSync(file, `${lines.join("\n")}\n`);
lines.length = 0;

const schema = "id BIGINT, city STRING, amount DOUBLE, qty INT, flag BOOLEAN, code STRING, ts TIMESTAMP, note STRING";
const session = Session.builder().getOrCreate();
const read = (): DataFrame => session.read.option("header", true).schema(schema).csv(file);
/** "full": the ColumnPruning rule excluded, so the scan converts every column. */
const use = (variant: string) => session.conf.set("spark.sql.optimizer.excludedRules", variant === "full" ? "ColumnPruning" : "");

const queries: [string, (df: DataFrame) => Promise<unknown>][] = [
  ["groupBy(city).count()", (df) => df.groupBy("city").count().collect()],
  ["count()", (df) => df.count()],
  ["groupBy(city) sum, max, max (4 columns)", (df) => df.groupBy("city").agg({ amount: "sum", qty: "max", ts: "max" }).collect()],
];

const gc = (globalThis as { gc?: () => void }).gc;
const times = new Map<string, number[]>();
async function timed(key: string, run: () => Promise<unknown>): Promise<void> {
  gc?.();
  const t = performance.now();
  await run();
  const ms = performance.now() - t;
  times.set(key, [...(times.get(key) ?? []), ms]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  for (let r = 0; r < rounds; r++) {
    for (const [name, q] of queries) {
      // alternate which variant goes first, so neither always runs on a warmer machine
      for (const variant of r % 2 === 0 ? ["pruned", "full"] : ["full", "pruned"]) {
        use(variant);
        await timed(`${name}|${variant}`, () => q(read()));
      }
    }
  }
  console.log(`CSV column pruning: ${rows} rows x 8 columns, ${rounds} rounds, median ms`);
  for (const [name] of queries) {
    const p = median(times.get(`${name}|pruned`)!);
    const f = median(times.get(`${name}|full`)!);
    console.log(`${name.padEnd(42)} pruned ${p.toFixed(0).padStart(6)}  every column ${f.toFixed(0).padStart(6)}  ${(f / p).toFixed(2)}x`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
