// Issue 13 item 7: errors that name the file, path and cause instead of misleading or bare ones.
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { type CheckpointFs, nodeFs, writeAtomic } from "../../src/checkpoint/atomic-file.js";
import { utcSession } from "../engine/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const session = utcSession();
const tmp = tempDirs("arus-errors-");

describe("clear errors", () => {
  it("offsets/N deleted alone: the restart names it (not 'concurrent queries')", async () => {
    const ckpt = await tmp();
    const ms = session.memoryStream("v INT");
    const start = () => ms.toDF().writeStream.format("noop").option("checkpointLocation", ckpt).start();
    const q = await start();
    for (let i = 0; i < 3; i++) {
      ms.addData([{ v: i }]);
      await q.processAllAvailable();
    }
    await q.stop();
    const victim = path.join(ckpt, "offsets", "2");
    rmSync(victim);
    const q2 = await start().catch((e: Error) => e);
    const err =
      q2 instanceof Error
        ? q2
        : await q2.processAllAvailable().then(
            () => null,
            (e: Error) => e,
          );
    if (!(q2 instanceof Error)) await q2.stop().catch(() => {});
    assert.ok(err, "the restart fails");
    assert.ok(err.message.includes(victim), err.message);
    assert.doesNotMatch(err.message, /concurrently/);
  });

  it("a corrupt Parquet file is named", async () => {
    const dir = await tmp();
    const f = path.join(dir, "bad.parquet");
    writeFileSync(f, "PAR1 this is not a parquet file PAR1");
    await assert.rejects(
      async () => session.read.schema("a INT").parquet(f).collect(),
      (e: Error) => e.message.includes(f),
    );
  });

  it("a write failing with ENOSPC (or a read-only mount) names the path", async () => {
    const dir = await tmp();
    const target = path.join(dir, "sub", "metadata");
    for (const code of ["ENOSPC", "EROFS"]) {
      const failing: CheckpointFs = {
        ...nodeFs,
        writeFile: async () => {
          throw Object.assign(new Error(`${code}: no space left on device, write`), { code });
        },
      };
      await assert.rejects(writeAtomic(failing, target, "x", false), (e: NodeJS.ErrnoException) => {
        assert.equal(e.code, code);
        assert.ok(e.message.includes(target), e.message);
        return true;
      });
    }
  });

  it("JSON nested 10 000 deep: a corrupt record (PERMISSIVE, DROPMALFORMED), FAILFAST names file and line", async () => {
    const dir = await tmp();
    const f = path.join(dir, "deep.json");
    const deep = `{"a":${"[".repeat(10_000)}${"]".repeat(10_000)},"b":1}`;
    writeFileSync(f, `{"b":0}\n${deep}\n{"b":2}\n`);
    for (const schema of [null, "a STRING, b INT", "b INT"]) {
      const reader = () => (schema ? session.read.schema(schema) : session.read);
      const permissive = await reader().json(f).collect();
      assert.equal(permissive.length, 3, String(schema));
      assert.equal(permissive[1]!.b, null);
      const dropped = await reader().option("mode", "DROPMALFORMED").json(f).collect();
      assert.deepEqual(
        dropped.map((r) => r.b),
        [0, 2],
      );
      await assert.rejects(
        async () => reader().option("mode", "FAILFAST").json(f).collect(),
        (e: Error) => e.message.includes(`${f} at line 2`) && !(e instanceof RangeError),
      );
    }
  });

  it("createDataFrame without a schema says so", () => {
    assert.throws(
      () => (session.createDataFrame as (rows: unknown) => unknown)([{ a: 1 }]),
      (e: Error) => !(e instanceof TypeError) && /needs a schema/.test(e.message),
    );
  });
});
