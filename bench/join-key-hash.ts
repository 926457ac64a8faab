/**
 * `fastHash` (src/execution/stateful/join-key-text.ts) on q8's key shape: a BIGINT id that
 * changes every row, then a window struct repeated for `--run` rows (as the decode threads hash
 * a side's rows to route them). Through the built package, so a build of another commit can be
 * measured with the same file (`--dist /tmp/old/dist`):
 *
 *   npm run build && node --import tsx bench/join-key-hash.ts [--rows 250000] [--run 5000] [--rounds 30] [--dist DIR]
 *
 * Prints the best nanoseconds per row over the rounds.
 */
import path from "node:path";

const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dist = path.resolve(arg("--dist") ?? path.join(import.meta.dirname, "../dist"));
const { fastHash } = (await import(
  path.join(dist, "execution/stateful/join-key-text.js")
)) as typeof import("../src/execution/stateful/join-key-text.js");
const { vectorFromValues } = (await import(path.join(dist, "columnar/vector.js"))) as typeof import("../src/columnar/vector.js");
const { LongType, TimestampType, StructOf, field } = (await import(
  path.join(dist, "types/datatypes.js")
)) as typeof import("../src/types/datatypes.js");

const rows = Number(arg("--rows") ?? 250_000);
const run = Number(arg("--run") ?? 5_000);
const rounds = Number(arg("--rounds") ?? 30);

const ids: number[] = [];
const windows: { start: number; end: number }[] = [];
for (let i = 0; i < rows; i++) {
  ids.push(1000 + ((i * 7919) % 200_000));
  const start = 1_420_070_400_000_000 + Math.floor(i / run) * 10_000_000;
  windows.push({ start, end: start + 10_000_000 });
}
const cols = [
  vectorFromValues(LongType, ids),
  vectorFromValues(StructOf([field("start", TimestampType), field("end", TimestampType)]), windows),
];

let best = Number.POSITIVE_INFINITY;
let sink = 0;
for (let r = 0; r < rounds; r++) {
  const t = process.hrtime.bigint();
  const hash = fastHash(cols)!;
  for (let i = 0; i < rows; i++) sink = (sink + hash(i)!) | 0;
  best = Math.min(best, Number(process.hrtime.bigint() - t) / rows);
}
console.log(`fastHash, ${rows} rows, windows repeated ${run} rows: ${best.toFixed(1)} ns a row (best of ${rounds}; ${dist}) [${sink}]`);
