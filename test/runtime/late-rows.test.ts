import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { functions as F, Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const tmpLateCols = tempDirsSync("arus-late-cols-");

const s = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "1").getOrCreate();

it("late rows are counted as rows and groups, kept in a table, and explained", async () => {
  const ms = s.memoryStream("id INT, event_time TIMESTAMP");
  const seen: number[] = [];
  const q = await ms
    .toDF()
    .withWatermark("event_time", "5 seconds")
    .groupBy(F.window("event_time", "10 seconds"))
    .count()
    .writeStream.format("memory")
    .queryName("counts")
    .option("lateRowsTable", "late")
    .onLateRows(async (df) => {
      seen.push(await df.count());
    })
    .start();
  for (const et of [12, 20, 27]) {
    ms.addData([{ id: et, event_time: new Date(et * 1000) }]);
    await q.processAllAvailable();
  }
  // Two rows for the closed window [10, 20) in one batch: Spark counts 1 group, arus 2 rows.
  ms.addData([
    { id: 13, event_time: new Date(13_000) },
    { id: 14, event_time: new Date(14_000) },
  ]);
  await q.processAllAvailable();
  const late = await s.table("late").orderBy("id").collect();
  assert.deepEqual(
    late.map((r) => [r.id, r._late_operator, (r._late_watermark as Date).toISOString(), r._late_by_ms]),
    [
      [13, "stateStoreSave#0", "1970-01-01T00:00:22.000Z", 9000],
      [14, "stateStoreSave#0", "1970-01-01T00:00:22.000Z", 8000],
    ],
  );
  assert.deepEqual(seen, [2]);
  const dropped = q.recentProgress.find((p) => p.stateOperators[0]!.numRowsDroppedByWatermark > 0)!;
  assert.equal(dropped.stateOperators[0]!.numRowsDroppedByWatermark, 1);
  assert.equal(dropped.arus!.numLateInputRows, 2);
  assert.equal(dropped.arus!.lateness!.event_time!.max, 14_000);
  const info = q.watermarkInfo();
  assert.equal(info.watermarkMs, 22_000);
  assert.deepEqual([info.droppedGroups, info.droppedInputRows], [1, 2]);
  assert.match(
    q.explainWatermark(),
    /Open windows: 1\n {2}operator 0: ends 1970-01-01T00:00:30.000Z; closes once an event at or after 1970-01-01T00:00:35.000Z arrives/,
  );
  await q.stop();
});

it("late rows keep every column even where the query reads fewer (column pruning holds back)", async () => {
  const dir = tmpLateCols();
  const rows = (ts: number[]) =>
    ts.map((t) => JSON.stringify({ id: t, note: `n${t}`, event_time: new Date(t * 1000).toISOString() })).join("\n");
  writeFileSync(path.join(dir, "a.json"), rows([12, 20, 27]));
  const late: Record<string, unknown>[] = [];
  const q = await s.readStream
    .schema("id INT, note STRING, event_time TIMESTAMP")
    .json(dir)
    .withWatermark("event_time", "5 seconds")
    .groupBy(F.window("event_time", "10 seconds"))
    .count()
    .writeStream.format("noop")
    .onLateRows(async (df) => {
      late.push(...(await df.collect()));
    })
    .start();
  await q.processAllAvailable();
  writeFileSync(path.join(dir, "b.json"), rows([13]));
  await q.processAllAvailable();
  await q.stop();
  assert.deepEqual(
    late.map((r) => [r.id, r.note, (r.event_time as Date).toISOString()]),
    [[13, "n13", "1970-01-01T00:00:13.000Z"]],
  );
});

for (const threads of ["1", "2"]) {
  it(`a stream-stream join's late rows, of either side, reach the handler (arus.state.threads=${threads})`, async () => {
    const left = s.memoryStream("lk STRING, lts TIMESTAMP");
    const right = s.memoryStream("rk STRING, rts TIMESTAMP");
    s.conf.set("arus.state.threads", threads);
    const late: string[] = [];
    const q = await left
      .toDF()
      .withWatermark("lts", "5 seconds")
      .join(right.toDF().withWatermark("rts", "5 seconds"), F.expr("lk = rk AND rts >= lts AND rts <= lts + interval 2 seconds"))
      .writeStream.format("noop")
      .onLateRows(async (df) => {
        for (const r of await df.collect()) late.push(`${r.lk ?? r.rk}@${r._late_operator}:${r._late_by_ms}`);
      })
      .start()
      .finally(() => s.conf.unset("arus.state.threads"));
    try {
      left.addData([{ lk: "a", lts: new Date(20_000) }]);
      right.addData([{ rk: "a", rts: new Date(21_000) }]);
      await q.processAllAvailable();
      // the watermark is now 15 s: rows at or before it are late on both sides
      left.addData([
        { lk: "old-left", lts: new Date(10_000) },
        { lk: "b", lts: new Date(30_000) },
      ]);
      right.addData([{ rk: "old-right", rts: new Date(12_000) }]);
      await q.processAllAvailable();
      const dropped = q.recentProgress.reduce((n, p) => n + (p.stateOperators[0]?.numRowsDroppedByWatermark ?? 0), 0);
      assert.deepEqual(late.sort(), ["old-left@symmetricHashJoin#0:5000", "old-right@symmetricHashJoin#0:3000"]);
      assert.equal(dropped, 2);
    } finally {
      await q.stop();
    }
  });
}
