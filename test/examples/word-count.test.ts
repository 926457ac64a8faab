/**
 * The quick-start word count (examples/word-count.ts): the guide's query over three rounds of
 * lines, complete mode, so each batch prints every word's running count.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { WordCountResult } from "../../examples/word-count.js";
import { parseConsoleBatches, runExample } from "./harness.js";

test("word count: explode(split(value, ' ')) then groupBy(word).count(), complete mode after every round", async () => {
  const { stdout, result } = await runExample<WordCountResult>("word-count.ts", "wordCount", { timeZone: "UTC" });
  assert.deepEqual(result.counts, [
    { apache: 2, spark: 1, hadoop: 1 },
    { apache: 2, spark: 3, hadoop: 1, structured: 1, streaming: 1, arus: 1, streams: 1, like: 1 },
    { apache: 2, spark: 3, hadoop: 1, structured: 1, streaming: 1, arus: 1, streams: 1, like: 1, hello: 1, world: 1 },
  ]);
  // The console shows the whole result table after each batch (complete mode), batch ids 0..2.
  const batches = parseConsoleBatches(stdout);
  assert.deepEqual(
    batches.map((b) => [b.batchId, b.rows.length]),
    [
      [0, 3],
      [1, 8],
      [2, 10],
    ],
  );
  assert.deepEqual(Object.fromEntries(batches[2]!.rows.map((r) => [r[0], Number(r[1])])), result.counts[2]);
  assert.match(stdout, /most frequent word: spark \(3\)\n$/);
});
