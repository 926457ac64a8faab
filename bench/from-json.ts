/**
 * Kafka values on bytes (issues 14 and 21): the Kafka source's record decoding and
 * `from_json(CAST(value AS STRING), schema)` over the batch it makes, with
 * `arus.columnar.utf8Strings` off (a Buffer view per record; from_json copies the views into one
 * buffer) and on (key and value as one buffer + offsets; from_json copies ranges of it, no object
 * per record), the same with the byte scanner instead of the WASM decoder (`arus.json.decoder`),
 * and the path with a JS string per record (forced through
 * `concat(CAST(value AS STRING))`, which the byte paths do not look through). The record batches
 * are Kafka's message format v2 written here (uncompressed, 500 records each), decoded by the
 * source's own decoder (connectors/kafka/record-batch.ts); no broker.
 *
 *   node --expose-gc --import tsx bench/from-json.ts [--rows 200000] [--rounds 9]
 *
 * The paths run alternately (the machine's load moves all alike), each after a full GC (with
 * --expose-gc) so none pays for the garbage of the one before; prints the median ms of the
 * decode (records → columns), of the query (a sum over from_json's `seq`) and of both.
 */
import { DataFrame } from "../src/api/dataframe.js";
import { ColumnsBuilder, decodeRecordBatches } from "../src/connectors/kafka/record-batch.js";
import { columnsToBatch, kafkaSchema } from "../src/connectors/kafka/rows.js";
import { functions as F, Session } from "../src/index.js";
import { attribute } from "../src/plan/expressions.js";
import { Plans } from "../src/plan/logical.js";

const argv = process.argv.slice(2);
const get = (k: string) => (argv.indexOf(k) >= 0 ? argv[argv.indexOf(k) + 1] : undefined);
const n = Number(get("--rows") ?? 200_000);
const rounds = Number(get("--rounds") ?? 9);
const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const schema = "seq BIGINT, k STRING, ts TIMESTAMP";

function varint(v: number, out: number[]): void {
  let z = v >= 0 ? v * 2 : -v * 2 - 1;
  while (z >= 0x80) {
    out.push((z % 128) | 0x80);
    z = Math.floor(z / 128);
  }
  out.push(z);
}
/** One uncompressed v2 record batch (CRC left 0: the decoder does not check it). */
function recordBatch(base: number, values: Buffer[]): Buffer {
  const body: number[] = [];
  values.forEach((v, i) => {
    const rec: number[] = [0];
    varint(i, rec); // timestamp delta
    varint(i, rec); // offset delta
    const key = Buffer.from(`k${(base + i) % 10}`);
    varint(key.length, rec);
    rec.push(...key);
    varint(v.length, rec);
    rec.push(...v);
    varint(0, rec); // headers
    varint(rec.length, body);
    body.push(...rec);
  });
  const h = Buffer.alloc(61);
  h.writeBigInt64BE(BigInt(base), 0);
  h.writeInt32BE(61 - 12 + body.length, 8);
  h.writeInt8(2, 16);
  h.writeInt32BE(values.length - 1, 23);
  h.writeBigInt64BE(BigInt(Date.UTC(2024, 0, 1)), 27);
  h.writeBigInt64BE(-1n, 43);
  h.writeInt32BE(values.length, 57);
  return Buffer.concat([h, Buffer.from(body)]);
}
const values = Array.from({ length: n }, (_, i) =>
  Buffer.from(JSON.stringify({ seq: i, k: `k${i % 10}`, ts: new Date(Date.UTC(2024, 0, 1) + i).toISOString() })),
);
const parts: Buffer[] = [];
for (let i = 0; i < n; i += 500) parts.push(recordBatch(i, values.slice(i, i + 500)));
const fetched = Buffer.concat(parts);
const kafka = kafkaSchema(false);
const output = kafka.fields.map((f) => attribute(f.name, f.type, f.nullable));
const tp = { topic: "bench", partition: 0 };

/** The source's decode of the fetched bytes into one batch, timed. */
async function decoded(): Promise<{ df: DataFrame; ms: number }> {
  const t = performance.now();
  const c = new ColumnsBuilder(n);
  await decodeRecordBatches(fetched, 0, fetched.length, 0, n, c, null, () => Promise.reject(new Error("compressed")));
  const batch = columnsToBatch(kafka, tp, c);
  const ms = performance.now() - t;
  return { df: new DataFrame(session as never, Plans.localRelation(output, [batch])), ms };
}
const sumSeq = (json: ReturnType<typeof F.from_json>) => [F.sum(json.getField("seq")).alias("s")];
const paths: Record<string, { utf8: boolean; decoder?: string; query: (df: DataFrame) => DataFrame }> = {
  "string per record (CAST, then from_json over the strings), utf8Strings off": {
    utf8: false,
    query: (df) => df.agg(...sumSeq(F.from_json(F.concat(F.col("value").cast("string")), schema))),
  },
  "bytes, utf8Strings off (a Buffer view per record)": {
    utf8: false,
    query: (df) => df.agg(...sumSeq(F.from_json(F.col("value").cast("string"), schema))),
  },
  "bytes, utf8Strings on (one buffer + offsets)": {
    utf8: true,
    query: (df) => df.agg(...sumSeq(F.from_json(F.col("value").cast("string"), schema))),
  },
  "bytes, utf8Strings on, byte scanner (arus.json.decoder=js)": {
    utf8: true,
    decoder: "js",
    query: (df) => df.agg(...sumSeq(F.from_json(F.col("value").cast("string"), schema))),
  },
};
const times = new Map(Object.keys(paths).map((k) => [k, { decode: [] as number[], query: [] as number[], total: [] as number[] }]));
const expected = (n * (n - 1)) / 2;
for (let r = 0; r < rounds; r++) {
  for (const [name, p] of Object.entries(paths)) {
    session.conf.set("arus.columnar.utf8Strings", String(p.utf8));
    session.conf.set("arus.json.decoder", p.decoder ?? "wasm");
    // The last path's garbage is not this one's to collect (with --expose-gc).
    (globalThis as { gc?: () => void }).gc?.();
    const { df, ms } = await decoded();
    const t = performance.now();
    const [row] = await p.query(df).collect();
    const q = performance.now() - t;
    if (Number((row as { s: unknown }).s) !== expected) throw new Error(`${name}: sum ${(row as { s: unknown }).s}, expected ${expected}`);
    const x = times.get(name)!;
    x.decode.push(ms);
    x.query.push(q);
    x.total.push(ms + q);
  }
}
session.conf.unset("arus.columnar.utf8Strings");
session.conf.unset("arus.json.decoder");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(0);
console.log(`| ${n} Kafka records, decode + from_json (${rounds} alternating rounds, median ms) | decode | from_json | both |`);
console.log("|---|---:|---:|---:|");
for (const [name, x] of times) console.log(`| ${name} | ${median(x.decode)} | ${median(x.query)} | ${median(x.total)} |`);
