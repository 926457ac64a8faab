// Stream-stream join matching: rows are paired by their encoded join key, and the condition's
// key equalities are skipped only for keys whose encoding cannot make unequal values equal.
// NaN and the infinities all encode as JSON null, so they must still go through `=`.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { functions as F, Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const tmpJoinKeys = tempDirsSync("arus-join-keys-");

const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();

async function joinOf(left: string[], right: string[]): Promise<string[]> {
  const dir = tmpJoinKeys();
  for (const [side, vals] of [
    ["l", left],
    ["r", right],
  ] as const) {
    mkdirSync(path.join(dir, side));
    writeFileSync(path.join(dir, side, "a.json"), vals.map((v, i) => JSON.stringify({ s: v, n: i })).join("\n"));
  }
  const l = s.readStream
    .schema("s STRING, n INT")
    .json(path.join(dir, "l"))
    .select(F.col("s").cast("double").alias("lk"), F.col("n").alias("ln"));
  const r = s.readStream
    .schema("s STRING, n INT")
    .json(path.join(dir, "r"))
    .select(F.col("s").cast("double").alias("rk"), F.col("n").alias("rn"));
  const out: string[] = [];
  const q = await l
    .join(r, F.col("lk").equalTo(F.col("rk")))
    .writeStream.foreachBatch(async (df) => {
      for (const row of await df.collect()) out.push(`${row.lk}/${row.ln}=${row.rk}/${row.rn}`);
    })
    .start();
  await q.processAllAvailable();
  await q.stop();
  return out.sort();
}

it("non-finite double keys are compared by `=`, not by their encoding", async () => {
  const out = await joinOf(["NaN", "1.5", "Infinity"], ["-Infinity", "Infinity", "1.5", "NaN"]);
  for (const pair of out) {
    const [a, b] = pair.split("=").map((x) => x.split("/")[0]);
    assert.equal(a, b, `${pair}: a pair whose keys differ`);
  }
  assert.ok(out.includes("1.5/1=1.5/2"), out.join(", "));
  assert.ok(out.includes("Infinity/2=Infinity/1"), out.join(", "));
});

it("plain keys match by value on both sides", async () => {
  const out = await joinOf(["1", "2", "2", "3"], ["2", "3", "4"]);
  assert.deepEqual(out, ["2/1=2/0", "2/2=2/0", "3/3=3/1"]);
});
