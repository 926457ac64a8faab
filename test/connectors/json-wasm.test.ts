// The WASM JSON decoder's artifacts, switch and thread use: the committed module is the
// committed .wasm (and a rebuild of the C source where clang is installed), `arus.json.decoder`
// picks the decoder and refuses other values, and decode threads give the one-thread rows.
// That its rows equal JSON.parse's is json-scan.property.test.ts.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { type Batch, rowValues } from "../../src/columnar/batch.js";
import { setScanThreads } from "../../src/connectors/files/decode-pool.js";
import { jsonDecoder, setJsonDecoder } from "../../src/connectors/files/json/json-decoder.js";
import { readJsonRanges } from "../../src/connectors/files/json/json-parallel.js";
import { readJsonBytes, scanJsonBytes } from "../../src/connectors/files/json/json-scan.js";
import { jsonReadSettings } from "../../src/connectors/files/json/json-settings.js";
import { wasmJsonCounters } from "../../src/connectors/files/json/json-wasm.js";
import { JSON_LINES_WASM } from "../../src/connectors/files/json/wasm/json-lines-wasm.js";
import { SourceOptions } from "../../src/connectors/files/options.js";
import { Session } from "../../src/index.js";
import { parseSchema } from "../../src/sql/datatype.js";

const root = path.resolve(import.meta.dirname, "../..");
const wasmDir = path.join(root, "src/connectors/files/json/wasm");
const rowsOf = (batches: Batch[]): unknown[][] => batches.flatMap((b) => Array.from({ length: b.numRows }, (_, i) => rowValues(b, i)));

function hasClang(): boolean {
  for (const c of [process.env.CLANG, "clang-19", "clang"]) {
    if (!c) continue;
    try {
      execFileSync(c, ["--version"], { stdio: "ignore" });
      return true;
    } catch {}
  }
  return false;
}

describe("WASM JSON decoder", () => {
  it("the module the engine loads is the committed json-lines.wasm", () => {
    assert.deepEqual(Buffer.from(JSON_LINES_WASM, "base64"), readFileSync(path.join(wasmDir, "json-lines.wasm")));
    const m = new WebAssembly.Module(Buffer.from(JSON_LINES_WASM, "base64"));
    // One import (JS's Number for hard decimal conversions), nothing from WASI.
    assert.deepEqual(
      WebAssembly.Module.imports(m).map((i) => `${i.module}.${i.name}`),
      ["arus.number"],
    );
  });

  it("rebuilding json-lines.c gives the committed binary (skipped without clang)", (t) => {
    if (!hasClang() || !existsSync("/usr/lib/wasm32-wasi")) {
      t.skip("no clang + wasi-libc here (.ci/run installs them and runs this check)");
      return;
    }
    const out = execFileSync("bash", [path.join(root, "scripts/build-wasm.sh"), "--check"], { encoding: "utf8" });
    assert.match(out, /matches a rebuild/);
  });

  it("arus.json.decoder picks the decoder; other values are refused", () => {
    const before = jsonDecoder();
    const session = Session.builder().getOrCreate();
    try {
      session.conf.set("arus.json.decoder", "js");
      assert.equal(jsonDecoder(), "js");
      session.conf.set("arus.json.decoder", "WASM");
      assert.equal(jsonDecoder(), "wasm");
      assert.throws(() => session.conf.set("arus.json.decoder", "simd"), /arus\.json\.decoder must be 'wasm' or 'js', got 'simd'/);
      assert.equal(session.conf.get("arus.json.decoder"), "WASM");
      session.conf.set("arus.json.decoder", "js");
      session.conf.unset("arus.json.decoder");
      assert.equal(jsonDecoder(), "wasm"); // the default
    } finally {
      setJsonDecoder(before);
    }
  });

  it("a file read through the session gives the same rows with either decoder", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "arus-wasm-"));
    const before = jsonDecoder();
    try {
      const lines = Array.from({ length: 500 }, (_, i) =>
        i % 50 === 7
          ? `{"id":${i},"name":["nested"]}`
          : JSON.stringify({ id: i, name: `n\u00e9${i}`, ts: `2026-01-16T00:00:${String(i % 60).padStart(2, "0")}Z` }),
      );
      writeFileSync(path.join(dir, "a.json"), lines.join("\n"));
      const session = Session.builder().getOrCreate();
      const read = async () =>
        (await session.read.schema("id BIGINT, name STRING, ts TIMESTAMP, _corrupt_record STRING").json(dir).collect()).map((r) => ({
          ...r,
        }));
      session.conf.set("arus.json.decoder", "js");
      const js = await read();
      session.conf.set("arus.json.decoder", "wasm");
      const rowsBefore = wasmJsonCounters.rows;
      const wasm = await read();
      assert.equal(wasmJsonCounters.rows - rowsBefore, 490);
      assert.deepStrictEqual(wasm, js);
      assert.equal(js.length, 500);
    } finally {
      setJsonDecoder(before);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("decode threads running the WASM decoder give the one-thread rows", async () => {
    setScanThreads(2);
    after(() => setScanThreads(1));
    const schema = parseSchema("id BIGINT, name STRING, ts TIMESTAMP, ok BOOLEAN, _corrupt_record STRING");
    const lines = Array.from({ length: 5000 }, (_, i) =>
      i % 777 === 3 ? `{"id":"x${i}"}` : JSON.stringify({ id: i, name: `n${i}\n`, ts: "2026-01-16T00:00:01.5Z", ok: i % 3 === 0 }),
    );
    const bytes = new TextEncoder().encode(lines.join("\r\n"));
    const dir = mkdtempSync(path.join(tmpdir(), "arus-json-wasm-"));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "f.json");
    writeFileSync(file, bytes);
    const o = new SourceOptions({});
    const settings = jsonReadSettings(o, "UTC");
    const before = jsonDecoder();
    try {
      setJsonDecoder("wasm");
      const many = rowsOf(await readJsonRanges(file, bytes.length, schema, o.toRecord(), "UTC", settings, 2));
      assert.deepStrictEqual(many, rowsOf(scanJsonBytes(file, bytes, schema, settings)));
      assert.deepStrictEqual(many, rowsOf(readJsonBytes(file, bytes, schema, settings)));
    } finally {
      setJsonDecoder(before);
    }
  });
});
