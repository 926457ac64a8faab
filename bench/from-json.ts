/**
 * from_json over Kafka's BINARY `value`: `from_json(CAST(value AS STRING), schema)` (the byte
 * path: the kernel gets the value bytes, no string per row) against the path it replaced, a
 * string per row from the cast and then one UTF-8 encoding of them all (forced here through
 * `concat(CAST(value AS STRING))`, which the byte path does not look through).
 *
 *   node --import tsx bench/from-json.ts [--rows 200000] [--rounds 9]
 *
 * The two run alternately (the machine's load moves both alike); prints the median ms of each.
 * The byte path runs with each JSON decoder (`arus.json.decoder`: wasm, the default, and js).
 */
import { functions as F, Session } from "../src/index.js";

const argv = process.argv.slice(2);
const get = (k: string) => (argv.indexOf(k) >= 0 ? argv[argv.indexOf(k) + 1] : undefined);
const n = Number(get("--rows") ?? 200_000);
const rounds = Number(get("--rounds") ?? 9);
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const rows = Array.from({ length: n }, (_, i) => ({
  value: new Uint8Array(Buffer.from(JSON.stringify({ seq: i, k: `k${i % 10}`, ts: new Date(Date.UTC(2024, 0, 1) + i).toISOString() }))),
}));
const df = session.createDataFrame(rows, "value BINARY");
const schema = "seq BIGINT, k STRING, ts TIMESTAMP";
/** Runs the query with `arus.json.decoder` = `d` (the string-per-row path keeps the default). */
function decoder<T>(d: string, q: T): T {
  session.conf.set("arus.json.decoder", d);
  return q;
}
const paths = {
  "string per row (CAST, then the scanner over the joined strings)": () =>
    df.select(
      F.from_json(F.concat(F.col("value").cast("string")), schema)
        .getField("seq")
        .alias("s"),
    ),
  "bytes (from_json over CAST(value AS STRING)), WASM decoder": () =>
    decoder("wasm", df.select(F.from_json(F.col("value").cast("string"), schema).getField("seq").alias("s"))),
  "bytes (from_json over CAST(value AS STRING)), byte scanner": () =>
    decoder("js", df.select(F.from_json(F.col("value").cast("string"), schema).getField("seq").alias("s"))),
};
const times = new Map<string, number[]>(Object.keys(paths).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  for (const [name, q] of Object.entries(paths)) {
    const t = performance.now();
    await q().count();
    session.conf.unset("arus.json.decoder");
    times.get(name)!.push(performance.now() - t);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`| from_json of ${n} Kafka-like values (${rounds} alternating rounds) | median ms |\n|---|---:|`);
for (const [name, xs] of times) console.log(`| ${name} | ${median(xs).toFixed(0)} |`);
