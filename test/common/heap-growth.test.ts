/**
 * `arus.v8.heapGrowingPercent` (src/common/heap-growth.ts): a session asks V8 for the factor,
 * V8's own sizing comes back once the live heap is large and goes again when it is small, a
 * factor given to node on its command line is left alone, and a bad value is refused by name.
 * (What the factor buys is measured by the benchmarks: bench/RESULTS.md, "Issue 21, session 16".)
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import {
  appliedHeapGrowingPercent,
  checkHeapGrowth,
  HEAP_GROWING_CONF,
  LARGE_HEAP_BYTES,
  setHeapGrowingPercent,
} from "../../src/common/heap-growth.js";
import { Session } from "../../src/index.js";

const MODULE = pathToFileURL(resolve(import.meta.dirname, "../../src/common/heap-growth.ts")).href;

describe("V8's heap growing factor", () => {
  it("a session applies the conf's factor (400 by default) and a changed conf replaces it", () => {
    const session = Session.builder().getOrCreate();
    try {
      assert.equal(appliedHeapGrowingPercent(), 400);
      session.conf.set(HEAP_GROWING_CONF, "250");
      assert.equal(appliedHeapGrowingPercent(), 250);
      session.conf.set(HEAP_GROWING_CONF, "0");
      assert.equal(appliedHeapGrowingPercent(), 0, "0: V8's own sizing");
    } finally {
      session.conf.unset(HEAP_GROWING_CONF);
    }
  });

  it("gives V8 its own sizing back while the live heap is large", () => {
    setHeapGrowingPercent(400);
    checkHeapGrowth(LARGE_HEAP_BYTES + 1);
    assert.equal(appliedHeapGrowingPercent(), 0);
    checkHeapGrowth(LARGE_HEAP_BYTES - 1);
    assert.equal(appliedHeapGrowingPercent(), 400);
  });

  it("refuses a value that is not a whole percent, naming the setting", () => {
    const session = Session.builder().getOrCreate();
    for (const bad of ["-5", "1.5", "lots"])
      assert.throws(
        () => session.conf.set(HEAP_GROWING_CONF, bad),
        new RegExp(`${HEAP_GROWING_CONF.replace(/\./g, "\\.")} must be a whole percent`),
      );
  });

  it("leaves a factor given to node on its command line alone", () => {
    const script = `const m = await import(${JSON.stringify(MODULE)}); m.setHeapGrowingPercent(400); console.log(m.appliedHeapGrowingPercent());`;
    const r = spawnSync(process.execPath, ["--heap-growing-percent=150", "--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), "0");
  });
});
