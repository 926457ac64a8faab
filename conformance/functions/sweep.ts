/**
 * The function sweep: every registered scalar function called with a fixed set of one- and
 * two-argument literal combinations, in arus and in PySpark, compared by result type, value (as
 * text) and error class. Not a test (Spark differs on purpose in places, and the arguments are
 * not meant to make sense): a map of where arus still differs, for the next pass.
 *
 *   node --import tsx conformance/functions/sweep.ts [--out DIR] [--show CATEGORY] [--filter NAME]
 *
 * Writes DIR/cases.json, spark.json (PySpark, ~8 minutes; reused when the cases are unchanged) and
 * arus.json, then prints the count per category — `value` and `type` (both ran, results differ),
 * `arus-err` / `spark-err` (only one failed), `errclass` (both failed differently) — and with
 * --show the entries of one. The venv is scripts/setup-pyspark.sh's (ARUS_PYSPARK_VENV).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lookupFunction, registeredNames } from "../../src/functions/registry.js";
import { Session } from "../../src/index.js";
import { venvPython } from "../run.js";

/** Functions whose result is not a function of its arguments, or that are not plain calls. */
const SKIP = new Set(
  (
    "rand randn random uuid shuffle uniform randstr current_timestamp now current_date curdate current_timezone " +
    "monotonically_increasing_id spark_partition_id input_file_name input_file_block_start input_file_block_length " +
    "raise_error assert_true current_watermark current_user user session_user current_database current_schema " +
    "current_catalog version reflect java_method try_reflect window session_window window_time lambdafunction " +
    "namedlambdavariable getfield getitem typeof grouping grouping_id schema_of_json schema_of_csv schema_of_xml sentences"
  ).split(" "),
);
const ONE = [
  "1",
  "-2.5",
  "'abc'",
  "'2024-03-15'",
  "DATE'2024-03-15'",
  "TIMESTAMP'2024-03-15 10:20:30'",
  "NULL",
  "array(1, 2, 3)",
  "0",
  "'1.5'",
  "true",
  "2147483647L",
];
const TWO = [
  ["1", "2"],
  ["'abc'", "'b'"],
  ["2.5", "1"],
  ["DATE'2024-03-15'", "1"],
  ["TIMESTAMP'2024-03-15 10:20:30'", "'yyyy-MM-dd'"],
  ["'a,b,c'", "','"],
  ["array(1, 2, 3)", "1"],
  ["'abc'", "2"],
  ["-7", "3"],
  ["NULL", "1"],
  ["'2024-03-15'", "'2024-01-01'"],
  ["map('a', 1)", "'a'"],
];

type Result = ["ok", string, string | null] | ["err", string];

function arg(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i < 0 ? undefined : process.argv[i + 1];
}

function cases(filter: string | undefined): string[] {
  const names = registeredNames()
    .filter((n) => /^[a-z][a-z0-9_]*$/.test(n) && lookupFunction(n)?.kind === "scalar" && !SKIP.has(n))
    .filter((n) => filter === undefined || n === filter)
    .sort();
  return names.flatMap((n) => [...ONE.map((a) => `${n}(${a})`), ...TWO.map(([a, b]) => `${n}(${a}, ${b})`)]);
}

async function arusResults(list: readonly string[]): Promise<Record<string, Result>> {
  const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
  const out: Record<string, Result> = {};
  for (const e of list) {
    try {
      const [r] = await session.sql(`SELECT typeof(${e}) AS t, CAST(${e} AS STRING) AS v`).collect();
      out[e] = ["ok", r!.t as string, r!.v as string | null];
    } catch (x) {
      const m = /\[([A-Z_]+(?:\.[A-Z_]+)?)\]/.exec((x as Error).message);
      out[e] = ["err", m ? m[1]! : `${(x as Error).constructor.name}: ${(x as Error).message.split("\n")[0]!.slice(0, 120)}`];
    }
  }
  return out;
}

function category(s: Result, a: Result): string | null {
  if (s[0] === "ok" && a[0] === "ok") return s[1] !== a[1] ? "type" : s[2] !== a[2] ? "value" : null;
  if (s[0] === "ok") return "arus-err";
  if (a[0] === "ok") return "spark-err";
  return s[1] !== a[1] ? "errclass" : null;
}

async function main(): Promise<void> {
  const dir = arg("--out") ?? join(import.meta.dirname, "..", ".cache", "functions");
  mkdirSync(dir, { recursive: true });
  const list = cases(arg("--filter"));
  const casesJson = JSON.stringify(list);
  const casesPath = join(dir, "cases.json");
  const sparkPath = join(dir, "spark.json");
  const fresh = !existsSync(casesPath) || readFileSync(casesPath, "utf8") !== casesJson || !existsSync(sparkPath);
  writeFileSync(casesPath, casesJson);
  if (fresh) {
    console.log(`PySpark: ${list.length} expressions…`);
    const r = spawnSync(venvPython(), [join(import.meta.dirname, "spark_sweep.py"), casesPath, sparkPath], {
      stdio: ["ignore", "ignore", "ignore"],
    });
    if (r.status !== 0) throw new Error(`spark_sweep.py failed (${r.status}); is the venv set up (scripts/setup-pyspark.sh)?`);
  }
  const spark = JSON.parse(readFileSync(sparkPath, "utf8")) as Record<string, Result>;
  const arus = await arusResults(list);
  writeFileSync(join(dir, "arus.json"), JSON.stringify(arus));
  const byCategory = new Map<string, string[]>();
  for (const e of list) {
    const c = category(spark[e]!, arus[e]!);
    if (c !== null) byCategory.set(c, [...(byCategory.get(c) ?? []), e]);
  }
  console.log(`${list.length} expressions; differing: ${[...byCategory].map(([c, es]) => `${c} ${es.length}`).join(", ") || "none"}`);
  const show = arg("--show");
  for (const e of show ? (byCategory.get(show) ?? []) : [])
    console.log(`${e}\n  spark ${JSON.stringify(spark[e])}\n  arus  ${JSON.stringify(arus[e])}`);
}

await main();
