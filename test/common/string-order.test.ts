// STRING order is code-point order (Spark's UTF8_BINARY: unsigned UTF-8 bytes), not JS's UTF-16
// code-unit order: they differ where a character beyond U+FFFF meets one in U+E000..U+FFFF.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { anySurrogate, rowPairOrder, stringOrderOf } from "../../src/columnar/string-order.js";
import { utf8FromStrings, utf8Vector } from "../../src/columnar/utf8.js";
import { bytesCompare, wordView } from "../../src/columnar/utf8-ops.js";
import { constantVector, vectorFromValues } from "../../src/columnar/vector.js";
import { compareStrings, compareUtf16, hasHighUnit, hasSurrogate } from "../../src/common/string-order.js";
import { StringType } from "../../src/types/datatypes.js";

const sign = (x: number) => Math.sign(x);
const byUtf8 = (a: string, b: string) => sign(Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));

/** Full-Unicode strings, with the characters where the two orders part company made frequent. */
const edge = fc.constantFrom("", "a", "\ud7ff", "\ue000", "\uff61", "\ufffd", "\uffff", "😀", "\u{10000}", "\u{10ffff}", "é", "x");
const str = fc.oneof(
  fc.string({ unit: "binary", maxLength: 10 }),
  fc.array(edge, { maxLength: 4 }).map((p) => p.join("")),
);

describe("compareStrings: code-point order", () => {
  it("orders U+FF61 / U+FFFD below an emoji, which JS's < does not", () => {
    assert.ok("\uff61" > "😀", "JS compares code units");
    assert.ok(compareStrings("\uff61", "😀") < 0);
    assert.ok(compareStrings("😀", "\ufffd") > 0);
    assert.ok(compareStrings("x\uffff", "x\u{10000}") < 0);
    assert.ok(compareStrings("\u{10000}", "\u{10ffff}") < 0);
    assert.ok(compareStrings("\ud7ff", "😀") < 0);
    assert.equal(compareStrings("😀a", "😀a"), 0);
    assert.ok(compareStrings("😀", "😀a") < 0);
    assert.ok(compareStrings("b", "a😀") > 0);
  });

  it("has the sign of Buffer.compare over the UTF-8 bytes, for any well-formed strings", () => {
    fc.assert(
      fc.property(str, str, (a, b) => {
        assert.equal(sign(compareStrings(a, b)), byUtf8(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
        assert.equal(sign(compareStrings(b, a)), byUtf8(b, a));
      }),
      { numRuns: 2000 },
    );
  });

  it("JS's native order agrees whenever neither string holds a surrogate", () => {
    const bmp = fc.string({ unit: "binary", maxLength: 8 }).filter((s) => !hasSurrogate(s));
    fc.assert(
      fc.property(bmp, bmp, (a, b) => {
        assert.equal(sign(compareUtf16(a, b)), byUtf8(a, b));
      }),
      { numRuns: 1000 },
    );
  });

  it("bytesCompare of the UTF-8 bytes agrees, at any offset of a buffer that is itself a view", () => {
    fc.assert(
      fc.property(str, str, fc.nat(7), fc.nat(7), (a, b, padA, padB) => {
        // each string after some filler, inside a larger buffer, through a subarray view
        const x = Buffer.concat([Buffer.alloc(3 + padA, 0x7a), Buffer.from(a)]).subarray(3);
        const y = Buffer.concat([Buffer.alloc(1 + padB, 0x00), Buffer.from(b), Buffer.from("tail")]).subarray(1);
        const c = bytesCompare(x, wordView(x), padA, x.length, y, wordView(y), padB, padB + Buffer.byteLength(b));
        assert.equal(sign(c), sign(compareStrings(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      }),
      { numRuns: 2000 },
    );
  });

  it("sorting with it gives the order of the UTF-8 bytes", () => {
    fc.assert(
      fc.property(fc.array(str, { maxLength: 30 }), (xs) => {
        const bytes = [...xs].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
        assert.deepStrictEqual([...xs].sort(compareStrings), bytes);
      }),
      { numRuns: 300 },
    );
  });
});

describe("stringOrderOf: the comparator a column needs", () => {
  it("finds a surrogate in JS strings, UTF-8 bytes and literals", () => {
    const plain = ["a", null, "\uffff"];
    const withEmoji = ["a", null, "b😀"];
    const utf8 = (vals: (string | null)[]) => {
      const p = vectorFromValues(StringType, vals);
      return utf8Vector(StringType, utf8FromStrings(vals)!, p.validity, vals.length);
    };
    assert.equal(anySurrogate(vectorFromValues(StringType, plain)), false);
    assert.equal(anySurrogate(vectorFromValues(StringType, withEmoji)), true);
    assert.equal(anySurrogate(utf8(plain)), false);
    assert.equal(anySurrogate(utf8(withEmoji)), true);
    assert.equal(anySurrogate(utf8(withEmoji), 2), false, "rows [0, 2) only");
    assert.equal(anySurrogate(constantVector(StringType, "😀", 3)), true);
    assert.equal(stringOrderOf([vectorFromValues(StringType, plain)], 3), compareUtf16);
    assert.equal(stringOrderOf([vectorFromValues(StringType, plain), utf8(withEmoji)], 3), compareStrings);
  });

  it("row against row: native when either side holds no unit >= 0xD800", () => {
    const v = (vals: (string | null)[]) => vectorFromValues(StringType, vals);
    const lit = (x: string) => constantVector(StringType, x, 2);
    assert.equal(rowPairOrder(v(["😀", "\uffff"]), lit("b"), 2), compareUtf16);
    assert.equal(rowPairOrder(lit("é"), v(["😀", "\uffff"]), 2), compareUtf16);
    assert.equal(rowPairOrder(v(["😀", null]), lit("\uff61"), 2), compareStrings);
    assert.equal(rowPairOrder(v(["\ue000", "x"]), lit("\uff61"), 2), compareUtf16, "no surrogate anywhere");
    assert.equal(rowPairOrder(v(["😀"]), v(["\ue000"]), 1), compareStrings);
  });

  it("hasHighUnit: a string holding none orders natively against any string", () => {
    fc.assert(
      fc.property(str, str, (a, b) => {
        if (!hasHighUnit(a) || !hasHighUnit(b)) assert.equal(sign(compareUtf16(a, b)), byUtf8(a, b));
      }),
      { numRuns: 2000 },
    );
  });
});
