/** `.option(key, value)` keeps strings, numbers and booleans as Spark's strings and refuses anything else by name. */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { Session } from "../../src/index.js";

const spark = new Session();
after(() => spark.stop());

describe("option values", () => {
  it("refuses a Promise (a missing await) instead of storing '[object Promise]'", () => {
    const dir = Promise.resolve("/tmp/x");
    const writer = spark.readStream.format("rate").load().writeStream;
    assert.throws(
      () => writer.option("checkpointLocation", dir as unknown as string),
      /option\("checkpointLocation"\) takes a string, number or boolean, got a Promise \(a missing await\?\)/,
    );
    assert.throws(() => spark.read.option("header", { yes: 1 } as unknown as string), /option\("header"\) takes .* got an object/);
    assert.throws(() => spark.readStream.option("maxFilesPerTrigger", undefined as unknown as string), /got undefined/);
    assert.throws(() => spark.read.options({ sep: null as unknown as string }), /option\("sep"\) .* got null/);
  });

  it("stores numbers and booleans as Spark's strings", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "arus-options-"));
    try {
      writeFileSync(path.join(dir, "a.csv"), "a;b\n1;2\n");
      const rows = await spark.read.option("header", true).option("sep", ";").option("samplingRatio", 1).csv(dir).collect();
      assert.deepEqual(rows, [{ a: "1", b: "2" }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
