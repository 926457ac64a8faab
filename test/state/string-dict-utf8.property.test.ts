/**
 * StringDict.idsOfUtf8 (key columns of the columnar state as UTF-8 bytes, no JS string per row)
 * gives the ids the string path gives: the same ids for the same strings, new strings added in
 * row order (or -2 without `add`), NULL as -1 — with repeats, lookalike bytes (é / e, shared
 * prefixes) and surrogate pairs, across calls.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { utf8FromStrings } from "../../src/columnar/utf8.js";
import { StringDict } from "../../src/state/columnar/dictionary.js";

// the last four share the cache slot of `idsOfUtf8` (length and bytes 0, 1, middle, last): only their bytes tell them apart
const str = fc.constantFrom(
  "",
  "a",
  "ab",
  "é",
  "e\u0301",
  "日本",
  "😀",
  "𝄞z",
  "web",
  "mobile",
  "\u0000",
  "\uffff",
  "abxdyf",
  "abydxf",
  "abxdxf",
  "abydyf",
);

test("idsOfUtf8 gives the string path's ids", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.array(fc.option(str, { freq: 6 }), { maxLength: 300 }), fc.boolean()), { maxLength: 5 }), (calls) => {
      const bytesDict = new StringDict();
      const stringDict = new StringDict();
      for (const [vals, add] of calls) {
        const n = vals.length;
        const u = utf8FromStrings(vals)!;
        const validity = Uint8Array.from(vals, (v) => (v === null ? 0 : 1));
        const got = new Int32Array(n);
        bytesDict.idsOfUtf8(u, validity, n, add, got);
        const want = vals.map((s) => (s === null ? -1 : (stringDict.index.get(s) ?? (add ? stringDict.getOrAdd(s) : -2))));
        assert.deepStrictEqual([...got], want);
      }
      assert.deepStrictEqual(bytesDict.strings, stringDict.strings);
    }),
    { numRuns: 300 },
  );
});
