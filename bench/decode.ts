/**
 * File decoding on one thread, the byte scanners against the text paths they replaced and the
 * WASM JSON decoder (`arus.json.decoder` = wasm) against the byte scanner, and the WASM decoder
 * with STRING columns as UTF-8 bytes (`arus.columnar.utf8Strings`), alone and followed by
 * decoding every string (what a consumer that needs JS strings pays), on the first bid file of
 * a generated size (the CSV is that file's rows written as CSV, in memory); and what a decode
 * thread does for local[2] (`readJsonRange` of each half of the file, read from the file, with
 * the UTF-8 STRING columns of the engine's default, batches made ready to post):
 *
 *   npm run build && node --import tsx bench/decode.ts [--data bench/data/out/1000000] [--rounds 7]
 *
 * Reads through the built package (dist/), as users run it; prints the median lines/s of each
 * (wall time; on one thread CPU time is the same but for GC threads: the UTF-8 table shows both).
 */
import { readFileSync } from "node:fs";
import path from "node:path";

type Files = typeof import("../src/connectors/files/json/json-scan.js") &
  typeof import("../src/columnar/utf8-conf.js") &
  typeof import("../src/connectors/files/json/json-decoder.js") &
  typeof import("../src/connectors/files/json/json-read.js") &
  typeof import("../src/connectors/files/csv/csv-scan.js") &
  typeof import("../src/connectors/files/csv/csv-read.js") &
  typeof import("../src/connectors/files/csv/csv-options.js") &
  typeof import("../src/connectors/files/datetime-text.js") &
  typeof import("../src/connectors/files/options.js") &
  typeof import("../src/columnar/transfer.js") &
  typeof import("../src/connectors/files/line-range.js") &
  typeof import("../src/sql/datatype.js");

async function load(): Promise<Files> {
  const dist = path.resolve(import.meta.dirname, "../dist");
  const mods = await Promise.all(
    [
      "connectors/files/json/json-scan.js",
      "columnar/utf8-conf.js",
      "connectors/files/json/json-decoder.js",
      "connectors/files/json/json-read.js",
      "connectors/files/csv/csv-scan.js",
      "connectors/files/csv/csv-read.js",
      "connectors/files/csv/csv-options.js",
      "connectors/files/datetime-text.js",
      "connectors/files/options.js",
      "columnar/transfer.js",
      "connectors/files/line-range.js",
      "sql/datatype.js",
    ].map((m) => import(path.join(dist, m))),
  );
  return Object.assign({}, ...mods) as Files;
}

const BID_ALL = "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, dateTime TIMESTAMP, extra STRING";
const BID_THREE = "auction BIGINT, price BIGINT, dateTime TIMESTAMP";
const BID_TWO = "auction BIGINT, dateTime TIMESTAMP";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/**
 * Median lines per second of each of `runs` over `rounds` rounds; the runs alternate within a
 * round, so a change in the machine's load moves them alike.
 */
function rates(lines: number, rounds: number, runs: (() => unknown)[], cpu?: number[]): number[] {
  const xs = runs.map(() => [] as number[]);
  const cs = runs.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    runs.forEach((run, k) => {
      const c = process.cpuUsage();
      const t = performance.now();
      run();
      xs[k]!.push(lines / ((performance.now() - t) / 1000));
      const d = process.cpuUsage(c);
      cs[k]!.push(lines / ((d.user + d.system) / 1e6));
    });
  }
  cpu?.push(...cs.map(median));
  return xs.map(median);
}

/** Reads every row of every STRING column (a sink or collect() needing JS strings). */
function decodeStrings(batches: { columns: readonly { type: { kind: string }; length: number; values: ArrayLike<unknown> }[] }[]): number {
  let n = 0;
  for (const b of batches) for (const c of b.columns) if (c.type.kind === "string") n += c.values.length;
  return n;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const get = (k: string) => (argv.indexOf(k) >= 0 ? argv[argv.indexOf(k) + 1] : undefined);
  const data = path.resolve(get("--data") ?? path.join(import.meta.dirname, "data/out/1000000"));
  const rounds = Number(get("--rounds") ?? 7);
  const f = await load();
  const file = path.join(data, "nexmark/bid/part-00000.jsonl");
  const json = readFileSync(file);
  const lines = json
    .toString("utf8")
    .split("\n")
    .filter((l) => l !== "");
  const csv = Buffer.from(
    `${lines
      .map((l) => {
        const o = JSON.parse(l) as Record<string, unknown>;
        return [o.auction, o.bidder, o.price, o.channel, o.url, o.dateTime, o.extra].join(",");
      })
      .join("\n")}\n`,
  );
  const settings = { mode: "PERMISSIVE" as const, corruptColumn: "_corrupt_record", dateTime: f.dateTimeText(null, "UTC") };
  const csvOpts = f.csvReadOptions(new f.SourceOptions({}));
  const rows: string[] = [];
  const M = (x: number) => `${(x / 1e6).toFixed(2)} M`;
  for (const [name, ddl] of [
    ["all 7 columns", BID_ALL],
    ["3 columns", BID_THREE],
    ["2 columns (auction, dateTime)", BID_TWO],
  ] as const) {
    const schema = f.parseSchema(ddl);
    f.setJsonDecoder("wasm");
    const [text, bytes, wasm] = rates(lines.length, rounds, [
      () => f.readJsonText(file, new TextDecoder().decode(json), schema, settings),
      () => f.scanJsonBytes(file, json, schema, settings),
      () => f.readJsonBytes(file, json, schema, settings),
    ]) as [number, number, number];
    rows.push(
      `| JSON lines, ${name} | ${M(text)} | ${M(bytes)} | ${(bytes / text).toFixed(2)}× | ${M(wasm)} | ${(wasm / bytes).toFixed(2)}× |`,
    );
  }
  const csvSchema = f.parseSchema(BID_ALL);
  const [text, bytes] = rates(lines.length, rounds, [
    () => f.readCsvText("bid.csv", csv.toString("utf8"), csvSchema, csvOpts, settings.dateTime),
    () => f.readCsvBytes("bid.csv", csv, csvSchema, csvOpts, settings.dateTime),
  ]) as [number, number];
  rows.push(`| CSV, all 7 columns | ${M(text)} | ${M(bytes)} | ${(bytes / text).toFixed(2)}× | – | – |`);
  const utf8Rows: string[] = [];
  for (const [name, ddl] of [
    ["all 7 columns", BID_ALL],
    [
      "q0's 5 columns (auction, bidder, price, dateTime, extra)",
      "auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP, extra STRING",
    ],
  ] as const) {
    const schema = f.parseSchema(ddl);
    f.setJsonDecoder("wasm");
    const withUtf8 = (on: boolean, decode: boolean) => () => {
      f.setUtf8Strings(on);
      const batches = f.readJsonBytes(file, json, schema, settings);
      f.setUtf8Strings(false);
      return decode ? decodeStrings(batches) : batches;
    };
    const cpu: number[] = [];
    const [off, on, onDecoded] = rates(
      lines.length,
      rounds,
      [withUtf8(false, false), withUtf8(true, false), withUtf8(true, true)],
      cpu,
    ) as [number, number, number];
    utf8Rows.push(
      `| ${name} | ${M(off)} / ${M(cpu[0]!)} | ${M(on)} / ${M(cpu[1]!)} | ${(on / off).toFixed(2)}× | ${M(onDecoded)} / ${M(cpu[2]!)} | ${(onDecoded / off).toFixed(2)}× |`,
    );
  }
  const rangeRows: string[] = [];
  const size = json.length;
  for (const [name, ddl] of [
    ["q0/q1/q7: auction, bidder, price, dateTime, extra", "auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP, extra STRING"],
    ["q2: auction, price", "auction BIGINT, price BIGINT"],
  ] as const) {
    const schema = f.parseSchema(ddl);
    f.setJsonDecoder("wasm");
    f.setUtf8Strings(true);
    const halves = () => {
      for (const [start, end] of f.nominalRanges(size, 2)) {
        const batches = f.portableBatches(f.readJsonRange(file, start, end, size, schema, settings));
        f.batchTransferList(batches);
      }
    };
    const cpu: number[] = [];
    const [wall] = rates(lines.length, rounds, [halves], cpu) as [number];
    f.setUtf8Strings(false);
    rangeRows.push(`| ${name} | ${M(wall)} | ${M(cpu[0]!)} | ${(1e9 / cpu[0]!).toFixed(0)} |`);
  }
  console.log(`Decoding ${lines.length} bid lines of ${file}, one thread, median of ${rounds} alternating rounds (lines/s):\n`);
  console.log("| input | text path | byte scanner | ratio | WASM decoder | vs byte scanner |\n|---|---:|---:|---:|---:|---:|");
  console.log(rows.join("\n"));
  console.log("\nWASM decoder, STRING columns as JS strings vs UTF-8 bytes (lines/s per wall second / per CPU second):\n");
  console.log(
    "| JSON lines | JS strings | UTF-8 bytes | ratio | UTF-8, then every string decoded | ratio |\n|---|---:|---:|---:|---:|---:|",
  );
  console.log(utf8Rows.join("\n"));
  console.log(
    "\nA decode thread's work for local[2]: readJsonRange of each half of the file (lines/s per wall second, per CPU second; CPU ns per line):\n",
  );
  console.log("| columns | lines/s | lines per CPU s | CPU ns/line |\n|---|---:|---:|---:|");
  console.log(rangeRows.join("\n"));
}

await main();
