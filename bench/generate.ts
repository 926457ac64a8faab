/**
 * Generators: explode over an ARRAY<STRING> column (GenerateExec alone: row indexes, the kept
 * column gathered by them, the elements into one vector), and the quick-start word count as a
 * batch query (split, explode, group by word, count). Prints the median over the rounds.
 *
 *   nice node --import tsx bench/generate.ts [--lines 200000] [--words 10] [--rounds 7]
 */
import { performance } from "node:perf_hooks";
import { makeBatch } from "../src/columnar/batch.js";
import { vectorFromValues } from "../src/columnar/vector.js";
import { LocalScanExec } from "../src/execution/operators/basic.js";
import { GenerateExec } from "../src/execution/operators/generate.js";
import { functions as F, Session } from "../src/index.js";
import { attribute, call } from "../src/plan/expressions.js";
import { ArrayOf, IntegerType, StringType } from "../src/types/datatypes.js";

const argv = process.argv.slice(2);
const get = (k: string) => (argv.indexOf(k) >= 0 ? argv[argv.indexOf(k) + 1] : undefined);
const lines = Number(get("--lines") ?? 200_000);
const words = Number(get("--words") ?? 10);
const rounds = Number(get("--rounds") ?? 7);
const BATCH = 65_536;

const vocabulary = Array.from({ length: 1000 }, (_, i) => `w${i}`);
const lineWords = (i: number) => Array.from({ length: words }, (_, k) => vocabulary[(i * 7 + k * 13) % vocabulary.length]!);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function time(run: () => Promise<unknown>): Promise<number> {
  await run(); // warm-up
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    await run();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

// GenerateExec alone: id INT kept beside explode(arr).
const id = attribute("id", IntegerType, false);
const arr = attribute("arr", ArrayOf(StringType, false), true);
const batches = [];
for (let off = 0; off < lines; off += BATCH) {
  const n = Math.min(BATCH, lines - off);
  batches.push(
    makeBatch([
      vectorFromValues(
        IntegerType,
        Array.from({ length: n }, (_, i) => off + i),
      ),
      vectorFromValues(
        ArrayOf(StringType, false),
        Array.from({ length: n }, (_, i) => lineWords(off + i)),
      ),
    ]),
  );
}
const exec = new GenerateExec(
  call("explode", [arr]),
  false,
  [attribute("col", StringType, false)],
  [1],
  new LocalScanExec([id, arr], batches),
);
const ctx = { eval: { timeZone: "UTC", batchTimestampMs: 0, watermarkMs: 0, ansi: true } };
const generateMs = await time(() => exec.execute(ctx));

// The word count, batch: text lines → split → explode → groupBy(word).count().
const spark = Session.builder().appName("bench-generate").config("spark.sql.session.timeZone", "UTC").getOrCreate();
const text = spark.createDataFrame(
  Array.from({ length: lines }, (_, i) => ({ value: lineWords(i).join(" ") })),
  "value STRING",
);
const counts = text
  .select(F.explode(F.split(F.col("value"), " ")).alias("word"))
  .groupBy("word")
  .count();
const wordCountMs = await time(() => counts.collect());

const out = lines * words;
const rate = (rows: number, ms: number) => `${(((rows / ms) * 1000) / 1e6).toFixed(1)} M rows/s`;
console.log(`lines ${lines}, words per line ${words}, rounds ${rounds} (median); node ${process.version}`);
console.log(`GenerateExec explode(arr) + id kept: ${generateMs.toFixed(0)} ms, ${rate(out, generateMs)} out`);
console.log(
  `word count (split, explode, group by, count): ${wordCountMs.toFixed(0)} ms, ${rate(lines, wordCountMs)} lines in, ${rate(out, wordCountMs)} words`,
);
