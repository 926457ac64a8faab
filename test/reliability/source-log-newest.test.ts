// Issue 13 (found by test/recovery/damage.test.ts): the file source's newest log entry deleted
// (`sources/0/N`). The restart gave log offset N again, to whatever files it listed first; the
// offset log says offset N was processed, so every file in the new N was taken as done and never
// read: new input lost with exit 0. The source must stop, naming the missing file.
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { tempDirs } from "../temp-dirs.js";

const tmp = tempDirs("arus-source-log-");

describe("file source log: newest entry deleted", () => {
  it("the restart stops naming sources/0/N instead of skipping new files", async () => {
    const root = await tmp();
    const input = path.join(root, "in");
    const ckpt = path.join(root, "ckpt");
    const got: string[] = [];
    const s = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
    const file = (name: string) => writeFileSync(path.join(input, name), `${JSON.stringify({ v: name })}\n`);
    const run = async () => {
      const q = await s.readStream
        .schema("v STRING")
        .json(input)
        .writeStream.option("checkpointLocation", ckpt)
        .foreachBatch(async (b) => {
          for (const r of await b.collect()) got.push(String(r.v));
        })
        .start();
      try {
        await q.processAllAvailable();
      } finally {
        await q.stop();
      }
      if (q.exception) throw q.exception;
    };
    mkdirSync(input);
    file("a");
    await run();
    file("b");
    await run();
    assert.deepEqual(got, ["a", "b"]);
    const log = path.join(ckpt, "sources", "0");
    const newest = readdirSync(log)
      .filter((n) => /^\d+$/.test(n))
      .sort((x, y) => Number(x) - Number(y))
      .at(-1)!;
    rmSync(path.join(log, newest));
    file("c");
    file("d");
    await assert.rejects(run(), (e: Error) => e.message.includes(path.join(log, newest)) && /missing/.test(e.message));
    assert.deepEqual(got, ["a", "b"], "no batch ran on the damaged log");
  });
});
