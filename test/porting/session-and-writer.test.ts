/**
 * Porting from PySpark: spark.sparkContext (setLogLevel honoured by arus's warnings), the
 * trigger forms, SQL on CSV files with Spark's defaults, and the streaming file-source schema rule.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { logWarning, setLogLevel, setLogWriter } from "../../src/common/log.js";
import { parseTrigger } from "../../src/runtime/trigger.js";
import { utcSession } from "../engine/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const session = utcSession();
const tempDir = tempDirs("arus-porting-");

describe("spark.sparkContext", () => {
  it("has appName, master and defaultParallelism as Spark computes them", () => {
    const sc = session.sparkContext;
    assert.equal(sc.appName, "test");
    assert.equal(sc.master, session.conf.getOption("spark.master") ?? "local[*]");
    session.conf.set("spark.default.parallelism", "3");
    assert.equal(sc.defaultParallelism, 3);
    session.conf.unset("spark.default.parallelism");
    assert.ok(Number.isInteger(sc.defaultParallelism) && sc.defaultParallelism >= 1);
  });
  it("setLogLevel sets the level arus's own warnings honour", () => {
    const lines: string[] = [];
    const prev = setLogWriter((l) => lines.push(l));
    try {
      session.sparkContext.setLogLevel("ERROR");
      assert.equal(session.sparkContext.logLevel, "ERROR");
      logWarning("ProcessingTimeExecutor", "Current batch is falling behind.");
      assert.deepEqual(lines, []);
      session.sparkContext.setLogLevel("warn");
      logWarning("ProcessingTimeExecutor", "Current batch is falling behind.");
      assert.deepEqual(lines, ["WARN ProcessingTimeExecutor: Current batch is falling behind.\n"]);
      assert.throws(
        () => session.sparkContext.setLogLevel("LOUD"),
        /Supplied level LOUD did not match one of: ALL,DEBUG,ERROR,FATAL,INFO,OFF,TRACE,WARN/,
      );
    } finally {
      setLogWriter(prev);
      setLogLevel("WARN");
    }
  });
  it("a listener that throws is logged through the same logger", async () => {
    const lines: string[] = [];
    const prev = setLogWriter((l) => lines.push(l));
    const listener = {
      onQueryStarted: () => {
        throw new Error("boom");
      },
    };
    session.streams.addListener(listener);
    try {
      const ms = session.memoryStream("id INT");
      const q = await ms.toDF().writeStream.format("noop").start();
      await q.stop();
      assert.ok(
        lines.some((l) => /^WARN StreamingQueryManager: StreamingQueryListener\.onQueryStarted threw: boom/.test(l)),
        lines.join(""),
      );
      lines.length = 0;
      session.sparkContext.setLogLevel("OFF");
      const q2 = await ms.toDF().writeStream.format("noop").start();
      await q2.stop();
      assert.deepEqual(lines, []);
    } finally {
      session.streams.removeListener(listener);
      setLogWriter(prev);
      setLogLevel("WARN");
    }
  });
});

describe("trigger forms", () => {
  it("PySpark's keyword forms, as an object", () => {
    assert.deepEqual(parseTrigger({ processingTime: "4 seconds" }), { kind: "processingTime", intervalMs: 4000 });
    assert.deepEqual(parseTrigger({ once: true }), { kind: "once" });
    assert.deepEqual(parseTrigger({ availableNow: true }), { kind: "availableNow" });
    assert.throws(() => parseTrigger({ continuous: "1 second" }), /Continuous processing is not supported by arus/);
  });
  it("a bare interval string is processingTime", () => {
    assert.deepEqual(parseTrigger("4 seconds"), { kind: "processingTime", intervalMs: 4000 });
    const ms = session.memoryStream("id INT");
    assert.doesNotThrow(() => ms.toDF().writeStream.trigger("4 seconds"));
  });
  it("misuse says exactly what to write", () => {
    const forms = /\{ processingTime: "5 seconds" \}, \{ once: true \} or \{ availableNow: true \}/;
    assert.throws(() => parseTrigger({}), forms);
    assert.throws(() => parseTrigger({ once: true, availableNow: true }), /Only one trigger can be set.*got once, availableNow/);
    // biome-ignore lint/suspicious/noExplicitAny: untyped callers
    assert.throws(() => parseTrigger({ interval: "4 seconds" } as any), /Unknown trigger 'interval': write trigger\(/);
    assert.throws(() => parseTrigger({ once: false }), /Value for `once` must be true, got false/);
    assert.throws(() => parseTrigger({ processingTime: " " }), /non-empty interval such as "5 seconds"/);
  });
});

describe("SQL on files", () => {
  it("csv.`path` reads with Spark's defaults: no header, columns _c0.., all strings (as read.csv)", async () => {
    const dir = await tempDir();
    const file = join(dir, "e.csv");
    await writeFile(file, "k,amount\na,12\nb,3\n");
    const df = session.sql(`SELECT * FROM csv.\`${file}\``);
    assert.deepEqual(
      df.schema.fields.map((f) => [f.name, f.type.kind]),
      [
        ["_c0", "string"],
        ["_c1", "string"],
      ],
    );
    assert.deepEqual(await df.collect(), await session.read.csv(file).collect());
    assert.deepEqual((await df.collect())[0], { _c0: "k", _c1: "amount" });
  });
});

describe("streaming file sources need a schema", () => {
  it("unless spark.sql.streaming.schemaInference is true, as in Spark", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "in"));
    await writeFile(join(dir, "in", "a.json"), '{"id": 1, "name": "x"}\n');
    for (const fmt of ["json", "csv"]) {
      assert.throws(
        () => session.readStream.format(fmt).load(join(dir, "in")),
        /^IllegalArgumentException: Schema must be specified when creating a streaming source DataFrame\. If some files already exist/,
      );
    }
    assert.deepEqual(session.readStream.schema("id INT").json(join(dir, "in")).columns, ["id"]);
    session.conf.set("spark.sql.streaming.schemaInference", "true");
    try {
      assert.deepEqual(session.readStream.json(join(dir, "in")).columns, ["id", "name"]);
    } finally {
      session.conf.unset("spark.sql.streaming.schemaInference");
    }
  });
});
