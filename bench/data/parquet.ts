/**
 * The Parquet variant of a generated data set: every JSON-lines file rewritten as one Parquet
 * file (snappy) with the same rows, the same base name and the same modification time, under
 * `<dir>-parquet/`, so both engines read the same micro-batches as from the JSON files. Written
 * by arus's own encoder with the queries' schemas (BIGINT as INT64, TIMESTAMP as microseconds
 * adjusted to UTC), which Spark reads as the same types.
 *
 *   node --import tsx bench/data/parquet.ts [--size quick|full|<nexmark events>]
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dateTimeText } from "../../src/connectors/files/datetime-text.js";
import { readJsonBytes } from "../../src/connectors/files/json/json-scan.js";
import { encodeParquet } from "../../src/connectors/files/parquet/parquet.js";
import { parseSchema } from "../../src/sql/datatype.js";
import { AUCTION_SCHEMA, BID_SCHEMA, ORDER_SCHEMA, PERSON_SCHEMA, PRODUCT_SCHEMA } from "../arus/queries.js";
import { defaultOutDir, generate, type Manifest } from "./generate.js";

const SCHEMAS: Record<string, string> = {
  "nexmark/person": PERSON_SCHEMA,
  "nexmark/auction": AUCTION_SCHEMA,
  "nexmark/bid": BID_SCHEMA,
  "checkout/orders": ORDER_SCHEMA,
  "checkout/products": PRODUCT_SCHEMA,
};

export type DataFormat = "json" | "parquet";

/** The data directory of a size in a format (generating the JSON, then the Parquet copy, if needed). */
export function dataFor(size: string, format: DataFormat, log: (s: string) => void): { dir: string; manifest: Manifest } {
  const jsonDir = defaultOutDir(size);
  const manifest = generate(jsonDir, size, undefined, false, log);
  if (format === "json") return { dir: jsonDir, manifest };
  return { dir: parquetCopy(jsonDir, manifest, log), manifest: { ...manifest, format: "parquet" } as Manifest };
}

export function parquetCopy(jsonDir: string, manifest: Manifest, log: (s: string) => void): string {
  const out = `${jsonDir}-parquet`;
  const manifestPath = path.join(out, "manifest.json");
  const wanted = JSON.stringify({ ...manifest, format: "parquet" }, null, 2);
  if (existsSync(manifestPath) && readFileSync(manifestPath, "utf8") === wanted) return out;
  const t0 = performance.now();
  const s = { mode: "FAILFAST" as const, corruptColumn: "_corrupt_record", dateTime: dateTimeText(null, "UTC") };
  for (const [sub, ddl] of Object.entries(SCHEMAS)) {
    const schema = parseSchema(ddl);
    const from = path.join(jsonDir, sub);
    const to = path.join(out, sub);
    mkdirSync(to, { recursive: true });
    for (const name of readdirSync(from).filter((f) => f.endsWith(".jsonl"))) {
      const src = path.join(from, name);
      const batches = readJsonBytes(src, readFileSync(src), schema, s);
      const dst = path.join(to, name.replace(/\.jsonl$/, ".parquet"));
      writeFileSync(dst, encodeParquet(schema, batches, "snappy"));
      const { mtime } = statSync(src);
      utimesSync(dst, mtime, mtime); // same micro-batches as the JSON files
    }
  }
  writeFileSync(manifestPath, wanted);
  log(`[data] Parquet copy in ${out} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return out;
}

/** The format a data directory holds (its manifest says; JSON when it says nothing). */
export function formatOf(dataDir: string): DataFormat {
  try {
    return (JSON.parse(readFileSync(path.join(dataDir, "manifest.json"), "utf8")) as { format?: DataFormat }).format ?? "json";
  } catch {
    return "json";
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const i = process.argv.indexOf("--size");
  const size = i >= 0 ? process.argv[i + 1]! : "quick";
  console.log(dataFor(size, "parquet", (m) => console.error(m)).dir);
}
