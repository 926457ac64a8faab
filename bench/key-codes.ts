/**
 * Key coding of the columnar state table on q5's key shape: (bigint auction, window) for 1.15 M
 * rows, each event's 5 sliding windows interleaved as the Expand writes them (row i, window j at
 * i * 5 + j), 20 000 events per 2-second slide. One fresh coder per round, through the built
 * package:
 *
 *   npm run build && node --import tsx bench/key-codes.ts [--rounds 7]
 *
 * Prints the median milliseconds of `KeyCoder.codesOf` (dictionary ids for the windows).
 */
import path from "node:path";

const dist = path.resolve(import.meta.dirname, "../dist");
const { KeyCoder } = (await import(path.join(dist, "state/columnar/key-codes.js"))) as typeof import("../src/state/columnar/key-codes.js");
const { makeVector } = (await import(path.join(dist, "columnar/vector.js"))) as typeof import("../src/columnar/vector.js");
const { LongType, TimestampType, WindowStructType } = (await import(
  path.join(dist, "types/datatypes.js")
)) as typeof import("../src/types/datatypes.js");

const argv = process.argv.slice(2);
const rounds = Number(argv[argv.indexOf("--rounds") + 1] ?? 7) || 7;
const n = 1_150_000;
const start = new Float64Array(n);
const end = new Float64Array(n);
const auction = new Float64Array(n);
for (let i = 0; i < n; i++) {
  const event = Math.floor(i / 5);
  const newest = 1.7e15 + Math.floor(event / 20_000) * 2e6;
  start[i] = newest - (i % 5) * 2e6;
  end[i] = start[i]! + 10e6;
  auction[i] = event % 5000;
}
const window = makeVector(WindowStructType, [], null, n, [
  makeVector(TimestampType, start, null, n),
  makeVector(TimestampType, end, null, n),
]);
const keys = [makeVector(LongType, auction, null, n), window];
const times: number[] = [];
for (let r = 0; r < rounds; r++) {
  const coder = new KeyCoder([
    { kind: "num", type: LongType, phys: "f64" },
    { kind: "struct", type: WindowStructType, fields: ["f64", "f64"] },
  ]);
  const t = performance.now();
  coder.codesOf(keys, n, true);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(`KeyCoder.codesOf, ${n} q5-shaped rows: median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms of ${rounds}`);
