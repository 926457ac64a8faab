/**
 * Every example runs as a script (`node --import tsx examples/<file>.ts`): its isMain block is
 * run here with that command line (in a worker, all in one go). The time-driven examples take
 * `--fast` (a ManualClock at the seed-like start, UTC) so this stays quick; without it they
 * run in real time like the seeds (48 s, 45 s, 44 s, 60 s). flagship.test.ts runs the real
 * script in a real process, with real time and Ctrl-C.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { runScripts } from "./harness.js";

const CASES: [file: string, args: string[], lastLine: RegExp][] = [
  ["seed000-watermark-simulation.ts", [], /^window count \(Spark's rule\): diterima=9 dibuang=1; \[10,20\) final 1, \[20,30\) final 5$/],
  ["seed000-web-vs-mobile.ts", ["--fast"], /^\(arus\) baris terlambat yang dibuang per sumber: \{"mobile":195\}$/],
  ["seed001-rate-window-watermark.ts", ["--fast"], /^status kueri setelah stop: Stopped$/],
  ["seed002-stateful-checkpoint-foreachbatch.ts", ["--fast"], /^durasi script: 44\.0 detik$/],
  ["seed003-table-watermark.ts", [], /^>> a reading at 10:41: watermark now 10:31$/],
  ["flagship.ts", ["--fast"], /^status: Stopped after 13 batches$/],
  ["word-count.ts", [], /^most frequent word: spark \(3\)$/],
];

test("every example runs as a script", async () => {
  const { outputs, failures, stderr } = await runScripts(CASES.map(([file, args]) => [file, args]));
  assert.deepEqual(failures, []);
  for (const [file, , last] of CASES) {
    const lines = outputs.get(file)!.trimEnd().split("\n");
    assert.match(lines.at(-1)!, last, `${file}: last line`);
  }
  assert.doesNotMatch(stderr, /Warning|Error/);
});
