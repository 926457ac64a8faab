// UTF-8 STRING vectors (columnar/utf8.ts) must give exactly the rows the JS-string layout gives,
// through every byte path: gather / slice / concat / scatter, the thread move, `=` / `!=` / `<` /
// `<=` / `>` / `>=` / `<=>` / IN / startswith / endswith / contains / instr / LIKE / length and ORDER BY
// (without decoding a row), and group ids of the hash index; for any strings, non-ASCII,
// astral, empty and NULL included.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as arrow from "apache-arrow";
import fc from "fast-check";
import { batchToArrow } from "../../src/columnar/arrow-export.js";
import { arrowDataToVector, arrowToBatch } from "../../src/columnar/arrow-import.js";
import { makeBatch } from "../../src/columnar/batch.js";
import { fromPortable, portable, transferListOf } from "../../src/columnar/transfer.js";
import { utf8FromStrings, utf8Of, utf8Vector } from "../../src/columnar/utf8.js";
import { setUtf8Strings } from "../../src/columnar/utf8-conf.js";
import { concatVectors, constantVector, getValue, scatter, slice, take, type Vector, vectorFromValues } from "../../src/columnar/vector.js";
import { GroupIndex } from "../../src/execution/group-index.js";
import { sortIndices } from "../../src/execution/operators/sort.js";
import { type EvalContext, lookupFunction } from "../../src/functions/index.js";
import type { SortOrder } from "../../src/plan/expressions.js";
import { field, StringType, StructOf } from "../../src/types/datatypes.js";
import { decoded } from "./utf8-check.js";

const S = StringType;
const ctx: EvalContext = { timeZone: "UTC", batchTimestampMs: 0, watermarkMs: 0, ansi: false };

/** Strings that share prefixes and suffixes often (so equality and affix tests hit both ways). */
const piece = fc.constantFrom("", "a", "ab", "é", "😀", "日本", "x y", "%", "_", "\u0000", "\uffff", "𝄞z");
const str = fc.oneof(
  fc.array(piece, { maxLength: 4 }).map((p) => p.join("")),
  fc.string({ unit: "binary", maxLength: 8 }).filter((s) => (s as string & { isWellFormed(): boolean }).isWellFormed()),
  fc.string({ maxLength: 6 }),
);
const column = fc.array(fc.option(str, { freq: 4 }), { maxLength: 40 });

const rows = (v: Vector): unknown[] => Array.from({ length: v.length }, (_, i) => getValue(v, i));

/** The same column in both layouts. */
function both(vals: (string | null)[]): { plain: Vector; utf8: Vector } {
  const plain = vectorFromValues(S, vals);
  const u = utf8FromStrings(vals);
  assert.ok(u !== null);
  return { plain, utf8: utf8Vector(S, u, plain.validity, vals.length) };
}

function call(name: string, args: Vector[], n: number): Vector {
  const f = lookupFunction(name);
  assert.ok(f?.kind === "scalar");
  return f.kernel(args, n, ctx);
}

describe("UTF-8 string vectors ≡ JS-string vectors", () => {
  it("decode to the same rows, and stay UTF-8 through take / slice / concat / scatter", () => {
    fc.assert(
      fc.property(column, column, fc.array(fc.integer({ min: -1, max: 60 })), fc.nat(), fc.nat(), (a, b, rawIdx, s0, s1) => {
        const x = both(a);
        const y = both(b);
        assert.deepStrictEqual(rows(x.utf8), a);
        const idx = a.length === 0 ? [] : rawIdx.map((j) => (j < 0 ? -1 : j % a.length));
        const t = take(x.utf8, idx);
        assert.ok(utf8Of(t));
        assert.deepStrictEqual(rows(t), rows(take(x.plain, idx)));
        const start = a.length === 0 ? 0 : s0 % a.length;
        const end = start + (a.length === 0 ? 0 : s1 % (a.length - start + 1));
        const sl = slice(x.utf8, start, end);
        assert.ok(utf8Of(sl));
        assert.deepStrictEqual(rows(sl), a.slice(start, end));
        // a slice (offsets not from 0) concatenated and gathered again
        const c = concatVectors(S, [sl, y.utf8, x.utf8]);
        assert.ok(utf8Of(c));
        assert.deepStrictEqual(rows(c), [...a.slice(start, end), ...b, ...a]);
        assert.deepStrictEqual(
          rows(
            take(
              c,
              [c.length - 1, 0].filter((i) => i >= 0 && i < c.length),
            ),
          ),
          rows(
            take(
              concatVectors(S, [sl, y.plain, x.plain]),
              [c.length - 1, 0].filter((i) => i >= 0 && i < c.length),
            ),
          ),
        );
        // mixed layouts: decoded, same rows
        assert.deepStrictEqual(rows(concatVectors(S, [x.plain, y.utf8])), [...a, ...b]);
        const part = Int32Array.from(a, (_, i) => (i * 7 + start) % 3);
        const counts = new Int32Array(3);
        for (const p of part) counts[p]++;
        const parts = scatter(x.utf8, part, counts);
        assert.deepStrictEqual(parts.map(rows), scatter(x.plain, part, counts).map(rows));
        assert.ok(parts.every((p) => utf8Of(p)));
      }),
      { numRuns: 300 },
    );
  });

  it("move between threads as their buffers (structured clone with transfer)", () => {
    fc.assert(
      fc.property(column, (a) => {
        const { utf8 } = both(a);
        const msg = portable(utf8);
        const transfer = transferListOf([msg]);
        assert.ok(transfer.length >= 2, "bytes and offsets are moved");
        const moved = structuredClone(msg, { transfer });
        const back = fromPortable(moved, S);
        assert.ok(utf8Of(back));
        assert.deepStrictEqual(rows(back), a);
        // not made portable (the state threads' routed keys): cloned as its decoded strings
        const { utf8: live } = both(a);
        assert.equal(transferListOf([live]).length, live.validity ? 1 : 0);
        const cloned = structuredClone(live, { transfer: transferListOf([live]) });
        assert.deepStrictEqual(rows(fromPortable(cloned, S)), a);
      }),
      { numRuns: 100 },
    );
  });

  it("Arrow export shares the bytes; import (flag on) keeps them, invalid UTF-8 decodes as before", () => {
    const schema = StructOf([field("s", S)]);
    fc.assert(
      fc.property(column, fc.nat(), (a, s0) => {
        const { utf8 } = both(a);
        const start = a.length === 0 ? 0 : s0 % a.length;
        const part = slice(utf8, start, a.length); // offsets not from 0
        const rb = batchToArrow(schema, makeBatch([part], part.length));
        for (const on of [false, true]) {
          setUtf8Strings(on);
          try {
            const back = arrowToBatch(rb).batch.columns[0]!;
            if (part.length > 0) assert.equal(utf8Of(back) !== undefined, on);
            assert.deepStrictEqual(rows(back), a.slice(start));
          } finally {
            setUtf8Strings(false);
          }
        }
      }),
      { numRuns: 100 },
    );
    // Arrow bytes that are not UTF-8: decoded (U+FFFD) rather than kept
    const bad = arrow.makeData({
      type: new arrow.Utf8(),
      length: 2,
      nullCount: 0,
      valueOffsets: Int32Array.of(0, 2, 3),
      data: Uint8Array.of(0x61, 0xc3, 0xa9),
    });
    const invalid = arrow.makeData({
      type: new arrow.Utf8(),
      length: 2,
      nullCount: 0,
      valueOffsets: Int32Array.of(0, 1, 2),
      data: Uint8Array.of(0x61, 0xff),
    });
    setUtf8Strings(true);
    try {
      const v = arrowDataToVector(bad, S);
      assert.equal(utf8Of(v), undefined);
      assert.deepStrictEqual(rows(v), ["a\ufffd", "\ufffd"]);
      const w = arrowDataToVector(invalid, S);
      assert.equal(utf8Of(w), undefined);
      assert.deepStrictEqual(rows(w), ["a", "\ufffd"]);
    } finally {
      setUtf8Strings(false);
    }
  });

  it("a spread copy never keeps stale bytes", () => {
    const { utf8 } = both(["a", "b", null]);
    const copy = { ...utf8, validity: Uint8Array.of(0, 1, 1) };
    assert.equal(utf8Of(copy), undefined);
    assert.deepStrictEqual(rows(copy), [null, "b", null]);
  });

  /** LIKE pattern text matching `s`'s backslashes literally. */
  const likeLiteral = (s: string): string => s.replace(/\\/g, "\\\\");

  it("= / != / < / <= / > / >= / startswith / endswith / contains / instr / LIKE / length give the same rows, from the bytes", () => {
    // (a backslash in the text is written escaped: a lone one before anything but _ % \ is refused, as in Spark)
    const patterns = fc
      .oneof(
        str,
        str.map((s) => `${s}%`),
        str.map((s) => `%${s}`),
        str.map((s) => `%${s}%`),
        fc.tuple(str, str, str).map(([x, y, z]) => `${x}%${y}%%${z}`),
        str.map((s) => `${s}_`),
      )
      .map(likeLiteral);
    const byteOps = ["=", "!=", "<", "<=", ">", ">=", "startswith", "endswith", "contains", "instr", "like", "length"];
    fc.assert(
      fc.property(column, column, str, patterns, (a, b0, lit, pat) => {
        const n = a.length;
        const b = Array.from({ length: n }, (_, i) => b0[i % Math.max(1, b0.length)] ?? a[n - 1 - i] ?? null);
        const y = both(b);
        const L = constantVector(S, lit, n);
        const P = constantVector(S, pat, n);
        const cases: [string, Vector[]][] = [
          ["length", []],
          ["like", [P]],
          ...byteOps.filter((o) => o !== "like" && o !== "length").map((o): [string, Vector[]] => [o, [L]]),
          ...["=", "!=", "<", "<=", ">", ">="].map((o): [string, Vector[]] => [o, [y.utf8]]),
        ];
        for (const [name, args] of cases) {
          const x = both(a); // fresh: nothing decoded yet
          const expected = rows(call(name, [x.plain, ...args.map((v) => (v === y.utf8 ? y.plain : v))], n));
          const what = `${name} ${JSON.stringify(lit)} ${JSON.stringify(pat)}`;
          assert.deepStrictEqual(rows(call(name, [x.utf8, ...args], n)), expected, what);
          const bytePath = name !== "like" || !/[_\\]/.test(pat);
          if (bytePath) assert.equal(decoded(x.utf8), false, `${what}: decoded its rows`);
          if (args[0] === L && ["=", "<", ">="].includes(name)) {
            // the literal on the left
            const fresh = both(a);
            assert.deepStrictEqual(rows(call(name, [L, fresh.utf8], n)), rows(call(name, [L, x.plain], n)), `${what} (flipped)`);
            assert.equal(decoded(fresh.utf8), false);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("<=> and IN with string literals give the same rows, from the bytes (NULLs on either side)", () => {
    fc.assert(
      fc.property(column, column, fc.array(str, { minLength: 1, maxLength: 6 }), (a, b0, lits) => {
        const n = a.length;
        const b = Array.from({ length: n }, (_, i) => b0[i % Math.max(1, b0.length)] ?? null);
        const y = both(b);
        const list = lits.map((l) => constantVector(S, l, n));
        const x = both(a);
        assert.deepStrictEqual(
          rows(call("in", [x.utf8, ...list], n)),
          rows(call("in", [x.plain, ...list], n)),
          `IN ${JSON.stringify(lits)}`,
        );
        assert.deepStrictEqual(rows(call("<=>", [x.utf8, y.utf8], n)), rows(call("<=>", [x.plain, y.plain], n)), "<=> columns");
        assert.deepStrictEqual(rows(call("<=>", [x.utf8, list[0]!], n)), rows(call("<=>", [x.plain, list[0]!], n)), "<=> literal");
        assert.deepStrictEqual(rows(call("<=>", [list[0]!, x.utf8], n)), rows(call("<=>", [list[0]!, x.plain], n)), "literal <=>");
        assert.equal(decoded(x.utf8), false, "decoded its rows");
        // A NULL in the list: no match gives NULL (the generic kernel decides it, same rows).
        const withNull = [...list, constantVector(S, null, n)];
        const fresh = both(a);
        assert.deepStrictEqual(
          rows(call("in", [fresh.utf8, ...withNull], n)),
          rows(call("in", [fresh.plain, ...withNull], n)),
          "IN with NULL",
        );
      }),
      { numRuns: 300 },
    );
  });

  it("contains / instr / LIKE over long rows (Buffer's native search running ahead across rows)", () => {
    const long = fc.array(piece, { minLength: 8, maxLength: 40 }).map((p) => p.join(""));
    const needle = fc.oneof(
      fc.array(piece, { minLength: 1, maxLength: 3 }).map((p) => p.join("")),
      str,
    );
    fc.assert(
      fc.property(fc.array(fc.option(fc.oneof(long, str), { freq: 6 }), { maxLength: 30 }), needle, needle, (a, t, t2) => {
        const n = a.length;
        const [lt, lt2] = [likeLiteral(t), likeLiteral(t2)];
        for (const [name, lit] of [
          ["contains", t],
          ["instr", t],
          ["like", `%${lt}%`],
          ["like", `${lt2}%${lt}%${lt2}%`],
          ["like", `%${lt}%${lt2}`],
        ] as const) {
          const x = both(a);
          const L = constantVector(S, lit, n);
          const what = `${name} ${JSON.stringify(lit)}`;
          assert.deepStrictEqual(rows(call(name, [x.utf8, L], n)), rows(call(name, [x.plain, L], n)), what);
          if (!/[_\\]/.test(lit)) assert.equal(decoded(x.utf8), false, what);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("ORDER BY a UTF-8 key sorts by its bytes, in the order of the JS strings' code points, without decoding", () => {
    fc.assert(
      fc.property(column, fc.boolean(), fc.boolean(), (a, ascending, nullsFirst) => {
        const x = both(a);
        const order = [{ ascending, nullsFirst }] as unknown as SortOrder[];
        assert.deepStrictEqual(sortIndices([x.utf8], order, a.length), sortIndices([x.plain], order, a.length));
        assert.equal(decoded(x.utf8), false);
      }),
      { numRuns: 300 },
    );
  });

  it("instr and LIKE's _ count characters, not UTF-16 units (either layout)", () => {
    const vals = ["😀a", "a", "𝄞😀x😀", null, "é😀"];
    const x = both(vals);
    const probe = (v: Vector, t: string) => rows(call("instr", [v, constantVector(S, t, vals.length)], vals.length));
    for (const v of [x.plain, x.utf8]) {
      assert.deepStrictEqual(probe(v, "a"), [2, 1, 0, null, 0]);
      assert.deepStrictEqual(probe(v, "😀"), [1, 0, 2, null, 2]);
      assert.deepStrictEqual(probe(v, "x"), [0, 0, 3, null, 0]);
      assert.deepStrictEqual(probe(v, ""), [1, 1, 1, null, 1]);
      const like = (p: string) => rows(call("like", [v, constantVector(S, p, vals.length)], vals.length));
      assert.deepStrictEqual(like("_a"), [1, 0, 0, null, 0]);
      assert.deepStrictEqual(like("%_😀"), [0, 0, 1, null, 1]);
      assert.deepStrictEqual(like("__"), [1, 0, 0, null, 1]);
    }
  });

  it("group ids: a key gets the same group whichever layout its batch has", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(column, fc.boolean()), { maxLength: 5 }), (batches) => {
        const mixed = new GroupIndex([S]);
        const plain = new GroupIndex([S]);
        for (const [vals, asUtf8] of batches) {
          const v = both(vals);
          const ids = mixed.assign([asUtf8 ? v.utf8 : v.plain], vals.length);
          assert.deepStrictEqual([...ids], [...plain.assign([v.plain], vals.length)]);
          const probe = both([...vals, "never seen ✓"]);
          assert.deepStrictEqual([...mixed.probe([probe.utf8], vals.length + 1)], [...plain.probe([probe.plain], vals.length + 1)]);
        }
        assert.deepStrictEqual(rows(mixed.keyVectors()[0]!), rows(plain.keyVectors()[0]!));
      }),
      { numRuns: 300 },
    );
  });
});
