// The WASM JSON decoder with `arus.columnar.utf8Strings`: STRING columns come out as UTF-8
// vectors (columnar/utf8.ts) holding exactly the strings the JS-string layout holds, invalid
// UTF-8 in the input and strings UTF-8 cannot carry included; the decode threads hand them
// over as bytes.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type Batch, rowValues } from "../../src/columnar/batch.js";
import { utf8Of } from "../../src/columnar/utf8.js";
import { setUtf8Strings } from "../../src/columnar/utf8-conf.js";
import { setScanThreads } from "../../src/connectors/files/decode-pool.js";
import { readJsonRanges } from "../../src/connectors/files/json/json-parallel.js";
import { readJsonBytes } from "../../src/connectors/files/json/json-scan.js";
import { jsonReadSettings } from "../../src/connectors/files/json/json-settings.js";
import { SourceOptions } from "../../src/connectors/files/options.js";
import { parseSchema } from "../../src/sql/datatype.js";
import { assertCanonicalUtf8 } from "../columnar/utf8-check.js";
import { tempDirsSync } from "../temp-dirs.js";

const tempDir = tempDirsSync("arus-json-utf8-");

const settings = jsonReadSettings(new SourceOptions({}), "UTC");
const schema = parseSchema("s STRING, n INT, t STRING");
const rowsOf = (batches: Batch[]): unknown[][] => batches.flatMap((b) => Array.from({ length: b.numRows }, (_, i) => rowValues(b, i)));

function read(bytes: Uint8Array, utf8: boolean): Batch[] {
  setUtf8Strings(utf8);
  try {
    const batches = readJsonBytes("f.json", bytes, schema, settings);
    assertCanonicalUtf8(batches);
    return batches;
  } finally {
    setUtf8Strings(false);
  }
}

const line = (s: Buffer | string, n = 1): Buffer =>
  Buffer.concat([Buffer.from('{"s":"'), Buffer.from(s), Buffer.from(`","n":${n},"t":"x"}\n`)]);

describe("WASM JSON decoder → UTF-8 string vectors", () => {
  after(() => setScanThreads(1));

  it("gives UTF-8 vectors with the rows of the JS-string layout", () => {
    const bytes = Buffer.concat([
      line("héllo"),
      line(""),
      Buffer.from('{"s":null,"n":2}\n'),
      line("日本\\u00e9\\ud83d\\ude00\\n"),
      line("plain"),
    ]);
    const on = read(bytes, true);
    assert.ok(utf8Of(on[0]!.columns[0]!) && utf8Of(on[0]!.columns[2]!));
    assert.deepStrictEqual(rowsOf(on), rowsOf(read(bytes, false)));
    assert.deepStrictEqual(
      rowsOf(on).map((r) => r[0]),
      ["héllo", "", null, "日本é😀\n", "plain"],
    );
  });

  it("long strings: the packing buffer grows with the module's memory", () => {
    const bytes = Buffer.concat(Array.from({ length: 1500 }, (_, i) => line(`${"é".repeat(i % 7)}${String(i).repeat(900)}`, i)));
    const on = read(bytes, true);
    assert.ok(utf8Of(on[0]!.columns[0]!));
    assert.deepStrictEqual(rowsOf(on), rowsOf(read(bytes, false)));
  });

  it("replaces invalid UTF-8 as decoding does, even when two rows' bytes would join into a character", () => {
    for (const bad of [[0xc3], [0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
      const bytes = Buffer.concat([line("ok"), line(Buffer.from(bad)), line("é")]);
      assert.deepStrictEqual(rowsOf(read(bytes, true)), rowsOf(read(bytes, false)), Buffer.from(bad).toString("hex"));
    }
    // "\xc3" then "\xa9...": each row alone is invalid, the two together would read "é"
    const split = Buffer.concat([line(Buffer.from([0x61, 0xc3])), line(Buffer.from([0xa9, 0x62]))]);
    const on = rowsOf(read(split, true));
    assert.deepStrictEqual(on, rowsOf(read(split, false)));
    assert.deepStrictEqual(
      on.map((r) => r[0]),
      ["a\ufffd", "\ufffdb"],
    );
  });

  it("keeps a string with a lone surrogate exactly (the batch falls back to JS strings)", () => {
    const bytes = Buffer.concat([line("a"), line("b\\ud800"), line("c")]);
    const on = read(bytes, true);
    assert.deepStrictEqual(
      rowsOf(on).map((r) => r[0]),
      ["a", "b\ud800", "c"],
    );
    assert.equal(utf8Of(on[0]!.columns[0]!), undefined);
  });

  it("decode threads hand UTF-8 vectors over as bytes", async () => {
    setScanThreads(2);
    const text = Buffer.concat(Array.from({ length: 200 }, (_, i) => line(`row ${i} ✓`, i)));
    const file = join(tempDir(), "f.json");
    writeFileSync(file, text);
    setUtf8Strings(true);
    let batches: Batch[];
    try {
      batches = await readJsonRanges(file, text.length, schema, {}, "UTC", settings, 2);
    } finally {
      setUtf8Strings(false);
    }
    assert.ok(batches.length >= 2 && batches.every((b) => utf8Of(b.columns[0]!)));
    assertCanonicalUtf8(batches);
    assert.deepStrictEqual(rowsOf(batches), rowsOf(read(text, false)));
  });
});
