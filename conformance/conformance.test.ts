/**
 * Self-tests of the conformance harness (no Spark and no engine needed):
 *   node --import tsx --test conformance/conformance.test.ts
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { type ArusModule, runArusCase } from "./arus_runner.js";
import { canonRow, canonValue, isoToMicros, parseType } from "./canonical.js";
import { defineCase, inputFiles, microsToIso, t, toSpec } from "./case.js";
import {
  compareConsole,
  compareProgressEntries,
  compareResults,
  diffRows,
  type EngineResult,
  readResult,
  stableStringify,
} from "./compare.js";
import { loadCases } from "./load_cases.js";

const SPARK_CACHE = join(import.meta.dirname, ".cache", "spark");

describe("case helpers", () => {
  test("t() and microsToIso", () => {
    assert.equal(t(5), "2024-01-01T00:00:05.000000Z");
    assert.equal(t(10, -1), "2024-01-01T00:00:09.999999Z");
    assert.equal(t(1.5), "2024-01-01T00:00:01.500000Z");
    assert.equal(microsToIso(-1n), "1969-12-31T23:59:59.999999Z");
    assert.equal(microsToIso(0n), "1970-01-01T00:00:00.000000Z");
    assert.equal(isoToMicros("1969-12-31T23:59:59.999999Z"), -1n);
    assert.equal(isoToMicros("2024-01-01T02:00:00.5+02:00"), isoToMicros(t(0.5)));
  });

  test("inputFiles writes JSON lines and CSV in schema order", () => {
    assert.deepEqual(inputFiles({ schema: "a INT, b STRING", batches: [[{ a: 1, b: "x" }], []] }), ['{"a":1,"b":"x"}\n', ""]);
    assert.deepEqual(inputFiles({ format: "csv", schema: "b STRING, a INT, m MAP<STRING, INT>", batches: [[{ a: 1, b: "x,y" }]] }), [
      '"x,y",1,\n',
    ]);
  });

  test("toSpec fills defaults and rejects incomplete cases", () => {
    const spec = toSpec(
      "g/x",
      defineCase({ description: "d", input: { schema: "a INT", batches: [[]] }, pyspark: "df", arus: ({ df }) => df }),
    );
    assert.equal(spec.outputMode, "append");
    assert.equal(spec.trigger, "availableNow");
    assert.equal(spec.inputs[0].name, "input");
    assert.throws(() => toSpec("g/y", defineCase({ description: "d", input: { schema: "a INT", batches: [] }, pyspark: "df" })));
  });
});

describe("canonical values", () => {
  test("parseType", () => {
    assert.deepEqual(parseType("decimal(20,2)"), { kind: "decimal", precision: 20, scale: 2 });
    const st = parseType("struct<window:struct<start:timestamp,end:timestamp>,m:map<string,array<int>>>");
    assert.equal(st.kind, "struct");
  });

  test("canonValue matches spark_runner.py's format", () => {
    assert.equal(canonValue(new Date(Date.UTC(2024, 0, 1, 0, 0, 5)), parseType("timestamp")), "2024-01-01T00:00:05.000000Z");
    assert.equal(canonValue({ micros: 1704067205000001n }, parseType("timestamp")), "2024-01-01T00:00:05.000001Z");
    assert.equal(canonValue(1704067205000001n, parseType("timestamp_ntz")), "2024-01-01T00:00:05.000001");
    assert.equal(canonValue(9223372036854775807n, parseType("bigint")), "9223372036854775807");
    assert.equal(canonValue(5n, parseType("bigint")), 5);
    assert.equal(canonValue(Number.NaN, parseType("double")), "NaN");
    assert.equal(canonValue("1.5", parseType("decimal(10,3)")), "1.500");
    assert.equal(canonValue(-0.001, parseType("decimal(12,3)")), "-0.001");
    assert.deepEqual(
      canonValue(
        new Map([
          ["b", 2],
          ["a", 1],
        ]),
        parseType("map<string,int>"),
      ),
      [
        ["a", 1],
        ["b", 2],
      ],
    );
    // spark_runner.py sorts pairs by json.dumps of the key, which escapes non-ASCII (\u00e9 < a)
    assert.deepEqual(
      (canonValue(new Map(["z", "é", "😀", "\uff61", "a"].map((k, i) => [k, i])), parseType("map<string,int>")) as unknown[][]).map(
        (p) => p[0],
      ),
      ["é", "😀", "\uff61", "a", "z"],
    );
    assert.deepEqual(
      canonRow({ w: { start: new Date(0), end: new Date(10_000) }, n: 3n }, [
        { name: "w", type: "struct<start:timestamp,end:timestamp>" },
        { name: "n", type: "bigint" },
      ]),
      { w: { start: "1970-01-01T00:00:00.000000Z", end: "1970-01-01T00:00:10.000000Z" }, n: 3 },
    );
  });
});

describe("comparison", () => {
  test("multiset rows, order-insensitive, duplicates counted", () => {
    assert.deepEqual(diffRows([{ a: 1 }, { a: 1 }, { a: 2 }], [{ a: 2 }, { a: 1 }, { a: 1 }]), { missing: [], unexpected: [] });
    const d = diffRows([{ a: 1 }, { a: 1 }], [{ a: 1 }, { a: 3 }]);
    assert.deepEqual(d, { missing: ['{"a":1}'], unexpected: ['{"a":3}'] });
  });

  test("no float tolerance unless asked", () => {
    assert.equal(diffRows([{ x: 0.1 + 0.2 }], [{ x: 0.3 }]).missing.length, 1);
    assert.equal(diffRows([{ x: 0.1 + 0.2 }], [{ x: 0.3 }], { floatTolerance: 1e-12 }).missing.length, 0);
  });

  test("unorderedArrays sorts arrays at the given paths only", () => {
    assert.equal(diffRows([{ s: [1, 3], l: [3, 1] }], [{ s: [3, 1], l: [3, 1] }], { unorderedArrays: ["s"] }).missing.length, 0);
    assert.equal(diffRows([{ s: [1, 3], l: [3, 1] }], [{ s: [1, 3], l: [1, 3] }], { unorderedArrays: ["s"] }).missing.length, 1);
  });

  test("stableStringify sorts keys and folds -0", () => {
    assert.equal(stableStringify({ b: 1, a: [-0, null] }), '{"a":[0,null],"b":1}');
  });

  test("progress per batch id, idle entries ignored", () => {
    const s = [
      {
        batchId: 0,
        numInputRows: 2,
        watermark: "1970-01-01T00:00:00.000Z",
        stateOperators: [{ numRowsTotal: 2, numRowsDroppedByWatermark: 0 }],
      },
      { batchId: 1, idle: true, numInputRows: 0 },
    ];
    assert.deepEqual(compareProgressEntries(s, [s[0]]), []);
    const bad = compareProgressEntries(s, [{ ...s[0], stateOperators: [{ numRowsTotal: 3, numRowsDroppedByWatermark: 0 }] }]);
    assert.equal(bad.length, 1);
    assert.match(bad[0].message, /numRowsTotal Spark 2 vs arus 3/);
  });

  test("console text compared exactly", () => {
    assert.deepEqual(compareConsole("a\nb\n", "a\nb\n"), []);
    assert.match(compareConsole("a\nb\n", "a\nc\n")[0].message, /line 2/);
    assert.deepEqual(compareConsole(null, "anything"), []);
    const sp = "Batch: 0\n+---+\n|  k|\n+---+\n|  b|\n|  a|\n+---+\n\n";
    const ar = "Batch: 0\n+---+\n|  k|\n+---+\n|  a|\n|  b|\n+---+\n\n";
    assert.deepEqual(compareConsole(sp, ar), []);
    assert.equal(compareConsole(sp, ar, true).length, 1);
  });
});

describe("cases", () => {
  test("every case file loads into a valid spec", async () => {
    const cases = await loadCases();
    assert.ok(cases.length >= 80, `expected at least 80 cases, found ${cases.length}`);
    const ids = new Set(cases.map((c) => c.id));
    assert.equal(ids.size, cases.length);
    for (const c of cases) {
      assert.match(c.id, /^[a-z0-9-]+\/[a-z0-9-]+$/, `${c.id}: ids are <group>/<kebab-name>`);
      assert.ok(c.def.description.length > 20, `${c.id}: needs a description`);
      if (!c.spec.sql) assert.equal(typeof c.def.arus, "function", `${c.id}: arus query`);
    }
  });

  test("cached Spark results compare equal to themselves", { skip: !existsSync(SPARK_CACHE) }, async () => {
    for (const c of await loadCases()) {
      const dir = join(SPARK_CACHE, c.id);
      if (!existsSync(join(dir, "meta.json"))) continue;
      const r = readResult(dir);
      const o = compareResults(
        c.id,
        r,
        { ...r, meta: { ...r.meta, status: r.meta.error ? "error" : "ok" } },
        c.spec.compare,
        c.spec.expectError,
      );
      if (r.meta.status === "ok" || r.meta.status === "expected-error") assert.equal(o.verdict, "pass", `${c.id}: ${o.reason}`);
    }
  });
});

/**
 * A stand-in engine that replays Spark's stored output through the real arus_runner plumbing
 * (files, foreachBatch, canonicalization, progress, console capture): every DataFrame method
 * returns the same proxy, and start() delivers the stored batches.
 */
function replayEngine(sparkDir: string): ArusModule {
  const r: EngineResult = readResult(sparkDir);
  const schema = { fields: (r.schema ?? []).map((f) => ({ name: f.name, dataType: { simpleString: () => f.type }, nullable: true })) };
  const progress = readFileSync(join(sparkDir, "progress_full.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  // biome-ignore lint/suspicious/noExplicitAny: test double
  let sink: any = { kind: "foreachBatch" };
  const started = new Set<string>();
  // biome-ignore lint/suspicious/noExplicitAny: test double
  const chain: any = new Proxy(() => {}, {
    get(_t, prop) {
      if (prop === "then") return undefined;
      if (prop === "foreachBatch")
        return (fn: unknown) => {
          sink = { kind: "fb", fn };
          return chain;
        };
      if (prop === "format")
        return (f: string) => {
          if (f === "console") sink = { kind: "console" };
          return chain;
        };
      if (prop === "start")
        return async () => {
          // restart phases: everything was delivered by the first run of each sink
          if (started.has(sink.kind)) return query([]);
          started.add(sink.kind);
          for (const id of r.batchIds) {
            const rows = r.batches.get(id) ?? [];
            if (sink.kind === "fb") await sink.fn({ schema, collect: async () => rows }, id);
          }
          if (sink.kind === "console" && r.console) process.stdout.write(r.console);
          return query(progress);
        };
      return chain;
    },
    apply() {
      return chain;
    },
  });
  const query = (p: unknown[]) => ({
    isActive: false,
    lastProgress: p.at(-1) ?? null,
    recentProgress: p,
    exception: null,
    awaitTermination: async () => true,
    stop: async () => {},
  });
  return { Session: { builder: () => chain }, functions: chain, types: chain };
}

describe("arus_runner plumbing", () => {
  test("replaying Spark's own output through arus_runner passes", { skip: !existsSync(SPARK_CACHE) }, async () => {
    const work = mkdtempSync(join(tmpdir(), "conf-selftest-"));
    try {
      const wanted = ["windows/tumbling-append-count", "console/console-value-rendering", "aggregates/sum-types-decimal"];
      for (const c of await loadCases(undefined, wanted)) {
        const sdir = join(SPARK_CACHE, c.id);
        if (!existsSync(join(sdir, "progress_full.jsonl"))) continue;
        const adir = join(work, c.id);
        mkdirSync(adir, { recursive: true });
        await runArusCase(c.spec, c.def, adir, replayEngine(sdir));
        const o = compareResults(c.id, readResult(sdir), readResult(adir), c.spec.compare, c.spec.expectError);
        assert.equal(o.verdict, "pass", `${c.id}: ${o.reason}`);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
