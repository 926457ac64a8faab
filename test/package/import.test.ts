// The built package, imported by name as users do: `import { Session, functions as F } from "arus"`.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";

const root = path.resolve(import.meta.dirname, "../..");

it("the built package exports the spec's names and prints show() as Spark does", () => {
  execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(root, "tsconfig.json")], {
    cwd: root,
  });
  // A file inside the package folder may import the package by its own name (self-reference).
  const dir = mkdtempSync(path.join(root, ".arus-tmp-"));
  const script = path.join(dir, "consumer.mjs");
  writeFileSync(
    script,
    `import { Session, functions as F, types as T, Column, DataFrame } from "arus";
import { testStream, ManualClock } from "arus/testing";
const s = Session.builder().appName("pkg").config("spark.sql.session.timeZone", "UTC").getOrCreate();
const df = s.createDataFrame([{ k: "a", ts: "2026-10-16 14:02:31" }, { k: "b", ts: null }], "k STRING, ts TIMESTAMP");
const out = await df.groupBy(F.window("ts", "6 seconds"), "k").count().orderBy("k").showString();
console.log(JSON.stringify({ out, isColumn: F.col("k") instanceof Column, isDf: df instanceof DataFrame, t: T.IntegerType.kind, kit: typeof testStream, clock: typeof ManualClock }));
`,
  );
  try {
    const res = JSON.parse(execFileSync(process.execPath, [script], { cwd: dir }).toString());
    assert.equal(
      res.out,
      "+--------------------+---+-----+\n|              window|  k|count|\n+--------------------+---+-----+\n|{2026-10-16 14:02...|  a|    1|\n+--------------------+---+-----+\n",
    );
    assert.deepEqual([res.isColumn, res.isDf, res.t, res.kit, res.clock], [true, true, "int", "function", "function"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
