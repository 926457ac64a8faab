/**
 * The test kit itself (`arus/testing`): scripts that pass, scripts that must fail with a
 * useful report, row normalization, the manual clock, restarts and expected failures.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import { functions as F, Session } from "../../src/index.js";
import {
  addData,
  advanceClock,
  assertOnQuery,
  checkAnswer,
  checkLastBatch,
  checkNewRows,
  execute,
  expectFailure,
  ManualClock,
  processAllAvailable,
  StreamTestFailure,
  startStream,
  stopStream,
  testStream,
  win,
} from "../../src/testing/index.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
const sec = (s: number) => new Date(s * 1000);

/** Run a script that must fail; return the failure. */
async function failing(p: Promise<unknown>): Promise<StreamTestFailure> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof StreamTestFailure, `expected a StreamTestFailure, got ${String(e)}`);
    return e;
  }
  assert.fail("the script passed but should have failed");
}

describe("testStream: passing scripts", () => {
  it("checks the whole sink, the last batch and the rows since the previous check", async () => {
    const ms = session.memoryStream("k STRING");
    await testStream(ms.toDF().groupBy("k").count(), "update", [
      addData(ms, [{ k: "a" }, { k: "a" }, { k: "b" }]),
      checkLastBatch([
        { k: "a", count: 2 },
        { k: "b", count: 1 },
      ]),
      addData(ms, [{ k: "a" }]),
      checkNewRows([{ k: "a", count: 3 }]),
      checkLastBatch([{ k: "a", count: 3 }]),
      // update mode accumulates every emitted row, like Spark's memory sink
      checkAnswer([
        { k: "a", count: 2 },
        { k: "b", count: 1 },
        { k: "a", count: 3 },
      ]),
    ]);
  });

  it("complete mode: checkAnswer sees only the latest batch", async () => {
    const ms = session.memoryStream("k STRING");
    await testStream(ms.toDF().groupBy("k").count(), "complete", [
      addData(ms, [{ k: "a" }]),
      checkAnswer([{ k: "a", count: 1 }]),
      addData(ms, [{ k: "b" }]),
      checkAnswer([
        { k: "a", count: 1 },
        { k: "b", count: 1 },
      ]),
    ]);
  });

  it("normalizes timestamps given as Date, epoch ms or text, arrays as rows, bigints and float noise", async () => {
    const ms = session.memoryStream("ts TIMESTAMP, x DOUBLE");
    const df = ms.toDF().groupBy(F.window("ts", "10 seconds")).agg(F.sum("x").alias("s"), F.count("*").alias("n"));
    await testStream(df, "update", [
      addData(ms, [
        { ts: sec(1), x: 0.1 },
        { ts: sec(2), x: 0.2 },
      ]),
      checkLastBatch([{ window: win(0, 10_000), s: 0.3, n: 2n }]),
      checkLastBatch([{ window: { start: "1970-01-01 00:00:00", end: "1970-01-01 00:00:10" }, s: 0.30000000000000004, n: 2 }]),
      checkLastBatch([[[0, 10_000], 0.3, 2]]),
    ]);
  });

  it("compares as multisets: a duplicate row must be expected twice", async () => {
    const ms = session.memoryStream("v INT");
    await testStream(ms.toDF(), "append", [addData(ms, [{ v: 1 }, { v: 1 }, { v: 2 }]), checkAnswer([{ v: 2 }, { v: 1 }, { v: 1 }])]);
    const ms2 = session.memoryStream("v INT");
    const f = await failing(testStream(ms2.toDF(), "append", [addData(ms2, [{ v: 1 }, { v: 1 }]), checkAnswer([{ v: 1 }])]));
    assert.match(f.message, /expected 1 row, actual 2/);
  });

  it("restarts from the same checkpoint: state survives, answers accumulate across runs", async () => {
    const ms = session.memoryStream("k STRING");
    await testStream(ms.toDF().groupBy("k").count(), "update", [
      addData(ms, [{ k: "a" }]),
      checkLastBatch([{ k: "a", count: 1 }]),
      stopStream(),
      addData(ms, [{ k: "a" }]),
      startStream(),
      checkLastBatch([{ k: "a", count: 2 }]),
      checkAnswer([
        { k: "a", count: 1 },
        { k: "a", count: 2 },
      ]),
      assertOnQuery((_q, ctx) => existsSync(`${ctx.checkpointLocation}/state/0`), "state files exist"),
    ]);
  });

  it("drives a processingTime trigger with the manual clock: nothing runs until the clock moves", async () => {
    const ms = session.memoryStream("v INT");
    const clock = new ManualClock(0);
    await testStream(
      ms.toDF(),
      "append",
      [
        addData(ms, [{ v: 1 }]),
        checkAnswer([]),
        advanceClock(999),
        checkAnswer([]),
        advanceClock(1),
        checkAnswer([{ v: 1 }]),
        assertOnQuery((q) => q.status.message === "Waiting for next trigger" && clock.now() === 1000),
      ],
      { trigger: { processingTime: "1 second" }, clock },
    );
  });

  it("expectFailure matches an error at start() and a query that fails while running", async () => {
    const ms = session.memoryStream("k STRING, v INT");
    await testStream(ms.toDF().groupBy("k").count(), "append", [expectFailure(/Append output mode not supported/)]);
    await testStream(ms.toDF().select(F.expr("10 / v").alias("r")), "append", [
      addData(ms, [{ k: "a", v: 0 }]),
      expectFailure((e) => e.message.includes("DIVIDE_BY_ZERO")),
      assertOnQuery((q) => !q.isActive && q.status.message.startsWith("Terminated with exception")),
      // a failed query can be restarted (and fails again on the same batch)
      startStream(),
      expectFailure("Division by zero"),
    ]);
  });

  it("sets confs for the query and restores them afterwards", async () => {
    const key = "spark.sql.streaming.noDataMicroBatches.enabled";
    const before = session.conf.get(key);
    const ms = session.memoryStream("v INT");
    const value = () => session.conf.get(key);
    await testStream(
      ms.toDF(),
      "append",
      [
        assertOnQuery(() => value() === "false"),
        stopStream(),
        startStream({ conf: { [key]: "true" } }),
        stopStream(),
        startStream(), // a start's conf sticks; the testStream options apply only to the first start
        assertOnQuery(() => value() === "true"),
      ],
      { conf: { [key]: false } },
    );
    assert.equal(value(), before);
  });

  it("removes its temporary checkpoint directory at the end", async () => {
    const ms = session.memoryStream("v INT");
    let dir = "";
    await testStream(ms.toDF(), "append", [
      execute((_q, ctx) => {
        dir = ctx.checkpointLocation;
      }),
    ]);
    assert.ok(dir !== "" && !existsSync(dir));
  });
});

describe("testStream: failure reports", () => {
  it("lists every action with a => cursor at the failing one, plus expected vs actual rows", async () => {
    const ms = session.memoryStream("k STRING");
    const f = await failing(
      testStream(ms.toDF().groupBy("k").count(), "update", [
        addData(ms, [{ k: "a" }]),
        checkLastBatch([{ k: "a", count: 1 }]),
        addData(ms, [{ k: "b" }]),
        checkLastBatch([{ k: "b", count: 7 }]),
        stopStream(),
      ]),
    );
    assert.equal(f.actionIndex, 4);
    const lines = f.message.split("\n");
    assert.match(
      lines[0]!,
      /^testStream failed at action 5 of 6 \(checkLastBatch\(\[\{k: "b", count: 7\}\]\)\): last batch \(batch 1\) does not match/,
    );
    const listing = lines.slice(lines.indexOf("== Actions ==") + 1, lines.indexOf("== Actions ==") + 7);
    assert.deepEqual(listing, [
      "   startStream() [implicit]",
      '   addData(MemoryStream[k], [{k: "a"}])',
      '   checkLastBatch([{k: "a", count: 1}])',
      '   addData(MemoryStream[k], [{k: "b"}])',
      '=> checkLastBatch([{k: "b", count: 7}])',
      "   stopStream()",
    ]);
    assert.ok(lines.includes('!  {k: "b", count: 7}'), "expected row marked");
    assert.ok(lines.includes('!  {k: "b", count: 1}'), "actual row marked");
    assert.match(f.message, /== Stream ==\noutput mode: update/);
    assert.match(f.message, /== Sink \(per batch\) ==\n0: \[\{k: "a", count: 1\}\]\n1: \[\{k: "b", count: 1\}\]/);
  });

  it("reports a check on unprocessed manual-clock data with a hint", async () => {
    const ms = session.memoryStream("v INT");
    const f = await failing(
      testStream(ms.toDF(), "append", [addData(ms, [{ v: 1 }]), checkAnswer([{ v: 1 }])], { trigger: { processingTime: "10 seconds" } }),
    );
    assert.match(f.message, /note: data was added after the last advanceClock/);
  });

  it("reports an unexpected query failure at the check that observes it", async () => {
    const ms = session.memoryStream("v INT");
    const f = await failing(testStream(ms.toDF().select(F.expr("1 / v").alias("r")), "append", [addData(ms, [{ v: 0 }]), checkAnswer([])]));
    assert.match(f.message, /at action 3 of 3 \(checkAnswer\(\[\]\)\): the query failed: \[STREAM_FAILED\].*DIVIDE_BY_ZERO/);
    assert.match(f.message, /exception: \[STREAM_FAILED\]/);
  });

  it("rejects an expectFailure the query does not satisfy", async () => {
    const ms = session.memoryStream("k STRING");
    const wrong = await failing(testStream(ms.toDF().groupBy("k").count(), "append", [expectFailure(/Complete output mode/)]));
    assert.match(wrong.message, /not as expected: no message matches \/Complete output mode\//);
    const healthy = await failing(testStream(ms.toDF(), "append", [expectFailure()], { timeoutMs: 50 }));
    assert.match(healthy.message, /expectFailure: the query is still running after 50 ms/);
  });

  it("reports assertOnQuery returning false with its message, and misuse of the kit", async () => {
    const ms = session.memoryStream("v INT");
    const f = await failing(testStream(ms.toDF(), "append", [assertOnQuery(() => false, "never true")]));
    assert.match(f.message, /: never true\n/);
    const noClock = await failing(testStream(ms.toDF(), "append", [advanceClock(10)]));
    assert.match(noClock.message, /advanceClock needs a processingTime trigger/);
    const twice = await failing(testStream(ms.toDF(), "append", [startStream(), startStream()]));
    assert.match(twice.message, /already running; add stopStream\(\) first/);
    const batch = await failing(testStream(session.range(3), "append", [processAllAvailable()]));
    assert.match(batch.message, /needs a streaming DataFrame/);
  });
});
