/**
 * Spark's quick-start Structured Streaming example, the word count of the Structured Streaming
 * Programming Guide, ported line by line:
 *
 *     lines = spark.readStream.format("socket").option("host", "localhost").option("port", 9999).load()
 *     words = lines.select(explode(split(lines.value, " ")).alias("word"))
 *     wordCounts = words.groupBy("word").count()
 *     query = wordCounts.writeStream.outputMode("complete").format("console").start()
 *
 * arus has no socket source (Spark's guide calls it a testing source too), so the lines come from
 * text files dropped into a directory, read with `readStream.text(dir)` — the file source the
 * guide uses for its other examples; each file is one micro-batch here. Everything after the
 * source is the guide's query: `explode` turns each line's array of words into one row per word,
 * and the running counts are printed in complete mode after every batch.
 *
 *   node --import tsx examples/word-count.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { functions as F, type Row, Session } from "../src/index.js";
import { type ExampleOptions, isMain, printer, seedSession } from "./lib/run.js";

/** What `nc -lk 9999` would have been typed into: one file per round. */
export const ROUNDS: readonly (readonly string[])[] = [
  ["apache spark", "apache hadoop"],
  ["spark structured streaming", "arus streams like spark"],
  ["hello world"],
];

export interface WordCountResult {
  /** The counts after each round, as the console printed them (word → count). */
  counts: Record<string, number>[];
}

export async function wordCount(opts: ExampleOptions = {}): Promise<WordCountResult> {
  const say = printer(opts.out);
  const dir = mkdtempSync(join(tmpdir(), "arus_word_count_"));
  const spark = seedSession(Session, "StructuredNetworkWordCount", opts.timeZone);

  // The guide's query, as written (the source being a directory of text files).
  const lines = spark.readStream.text(dir);
  const words = lines.select(F.explode(F.split(lines.col("value"), " ")).alias("word"));
  const wordCounts = words.groupBy("word").count();

  const query = await wordCounts.writeStream.outputMode("complete").format("console").start();
  // A second sink on the same query, in memory, keeps the counts for the caller (and the test).
  const kept = await wordCounts.writeStream.outputMode("complete").format("memory").queryName("word_counts").start();

  const counts: WordCountResult["counts"] = [];
  for (const [i, round] of ROUNDS.entries()) {
    writeFileSync(join(dir, `lines-${i}.txt`), `${round.join("\n")}\n`);
    await query.processAllAvailable();
    await kept.processAllAvailable();
    const rows = (await spark.sql("SELECT word, count FROM word_counts").collect()) as Row[];
    counts.push(Object.fromEntries(rows.map((r) => [r.word as string, Number(r.count)])));
  }
  await query.stop();
  await kept.stop();
  const top = Object.entries(counts.at(-1)!).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
  say(`most frequent word: ${top[0]} (${top[1]})`);
  await spark.stop();
  rmSync(dir, { recursive: true, force: true });
  return { counts };
}

if (isMain(import.meta.filename)) await wordCount();
