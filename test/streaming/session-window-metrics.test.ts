// Session-window state metrics as Spark 4.3 counts them (expected values: PySpark 4.3.0 on the
// same files): Spark keeps a state row per session keyed by its start, so a stored session
// extended to an earlier start (a at 5 s, then a at 3 s: [5, 10) becomes [3, 10)) is a removed
// row and an updated one; arus counted only sessions that disappeared into a merge.
import assert from "node:assert/strict";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { functions as F } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";
import { utcSession } from "./helpers.js";

const tmp = tempDirsSync("arus-session-metrics-");
const s = utcSession();

it("a session moved to an earlier start counts as removed, as in Spark", async () => {
  const dir = path.join(tmp(), "in");
  mkdirSync(dir);
  const files: [string, number][][] = [
    [
      ["a", 5],
      ["b", 1],
    ],
    [
      ["a", 3],
      ["b", 4],
    ],
    [
      ["a", 30],
      ["b", 2],
    ],
    [["a", 60]],
  ];
  files.forEach((rows, i) => {
    const f = path.join(dir, `part-${i}.json`);
    writeFileSync(
      f,
      rows.map(([k, sec]) => `${JSON.stringify({ k, t: new Date(Date.UTC(2024, 0, 1, 0, 0, sec)).toISOString() })}\n`).join(""),
    );
    utimesSync(f, 1_700_000_000 + i * 10, 1_700_000_000 + i * 10);
  });
  const out: string[][] = [];
  const q = await s.readStream
    .schema("k STRING, t TIMESTAMP")
    .option("maxFilesPerTrigger", 1)
    .json(dir)
    .withWatermark("t", "10 seconds")
    .groupBy(F.session_window("t", "5 seconds"), "k")
    .count()
    .writeStream.foreachBatch(async (b) => {
      const rows = await b.collect();
      out.push(
        rows
          .map((r) => {
            const w = r.session_window as { start: Date; end: Date };
            return `${r.k}:${w.start.getUTCSeconds()}-${w.end.getUTCSeconds()}:${r.count}`;
          })
          .sort(),
      );
    })
    .option("checkpointLocation", tmp())
    .trigger({ availableNow: true })
    .start();
  await q.awaitTermination();
  assert.deepEqual(out, [[], [], [], ["a:3-10:2", "b:1-9:3"], ["a:30-35:1"]]);
  assert.deepEqual(
    q.recentProgress.map((p) => {
      const op = p.stateOperators[0]!;
      return [op.numRowsTotal, op.numRowsUpdated, op.numRowsRemoved];
    }),
    [
      [2, 2, 0],
      [2, 2, 1],
      [3, 3, 0],
      [2, 3, 2],
      [1, 0, 1],
    ],
  );
});
