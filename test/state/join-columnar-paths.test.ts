// The stream-stream join's columnar paths give what its row-at-a-time paths gave:
// - join-input.ts writes keys of numbers and flat structs of numbers straight from the typed
//   arrays: the same text, key time, plain flag and partition as `joinKey` of the row's values;
// - the columnar join table stores a row from the vectors (`appendFrom`) as `append` of the
//   row's values does, and `gatherColumn` reads stored rows back as `vectorFromValues` of their
//   values;
// - state files write a chunk's keys as one joined string, or per key where that cannot work
//   (a key not well-formed UTF-16, or one holding the separator), and read both back.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import { makeBatch } from "../../src/columnar/batch.js";
import { getValue, type Vector, vectorFromValues } from "../../src/columnar/vector.js";
import { keyTextHash } from "../../src/common/hash.js";
import { partitionOf } from "../../src/execution/stateful/common.js";
import { isNullKey, joinKeyHashes, NULL_KEY, sideInput } from "../../src/execution/stateful/join-input.js";
import { TextHash } from "../../src/execution/stateful/join-key-text.js";
import { endOf } from "../../src/execution/stateful/join-side.js";
import { joinKey, plainKey } from "../../src/execution/stateful/join-state.js";
import { gatherColumn } from "../../src/state/join/columns.js";
import { ColumnarJoinProvider } from "../../src/state/join/index.js";
import { JoinSideTable } from "../../src/state/join/table.js";
import { type DataType, DoubleType, field, IntegerType, LongType, StringType, StructOf, TimestampType } from "../../src/types/datatypes.js";

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const double = fc.oneof(
  fc.constantFrom(0, -0, 1.5, 2 ** 53 + 2, -(2 ** 60), Number.NaN, Number.POSITIVE_INFINITY, 1e21, null),
  fc.integer({ min: -5, max: 5 }),
);
const long = fc.oneof(fc.constantFrom(0, -0, 2 ** 53 - 1, 1_420_070_400_000_000, null, 2n ** 60n), fc.integer({ min: -5, max: 5 }));
const int = fc.oneof(fc.constant(null), fc.integer({ min: -5, max: 5 }));
/**
 * Field names a plain object keeps in another order, or holds once, beside ordinary ones; and
 * names with characters past ASCII (one byte, and wider: the key text's hash treats them apart).
 */
const names = fc.constantFrom(["start", "end"], ["end", "start"], ["1", "a"], ["__proto__", "b"], ["a", "a"], ["x"], ["ü", "日"]);

/** A column type and a generator of its values. */
interface Col {
  type: DataType;
  value: fc.Arbitrary<unknown>;
}
const atom = fc.constantFrom<Col>(
  { type: DoubleType, value: double },
  { type: LongType, value: long },
  { type: TimestampType, value: long },
  { type: IntegerType, value: int },
);
const column: fc.Arbitrary<Col> = fc.oneof(
  atom,
  atom,
  fc.constant<Col>({ type: StringType, value: fc.constantFrom("a", "b", "\ud800", null) }),
  fc.tuple(names, atom, atom).map(([ns, a, b0]) => {
    // Fields of one name take one value: give them one type.
    const b = ns[0] === ns[1] ? a : b0;
    const fields = ns.map((n, i) => field(n, i === 0 ? a.type : b.type));
    // Runs of equal values, as windows come: the generator repeats a value often.
    const values = fc.tuple(...fields.map((_, i) => (i === 0 ? a.value : b.value)));
    return {
      type: StructOf(fields),
      value: fc.oneof(
        fc.constant(null),
        values.map((vs) => Object.fromEntries(ns.map((n, i) => [n, vs[i]]))),
      ),
    };
  }),
);

/** Vectors of the columns' values (as a batch of the source would hold them). */
function vectors(cols: readonly Col[], rows: readonly unknown[][]): Vector[] {
  return cols.map((c, i) =>
    vectorFromValues(
      c.type,
      rows.map((r) => r[i]),
    ),
  );
}

const table = fc.array(column, { minLength: 1, maxLength: 3 }).chain((cols) =>
  fc.record({
    cols: fc.constant(cols),
    // Rows repeat (shuffled runs) so the window text cache is exercised.
    rows: fc
      .array(fc.tuple(...cols.map((c) => c.value)), { maxLength: 12 })
      .chain((rs) => fc.array(fc.constantFrom(...(rs.length ? rs : [cols.map(() => null)])), { maxLength: 24 })),
  }),
);

describe("join input keys", () => {
  it("hash a text from any state as FNV-1a step by step does (TextHash, the window part of a key)", () => {
    const fnv = (h: number, s: string) => {
      for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
      return h;
    };
    const text = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: "binary", maxLength: 8 }),
      fc.string({ unit: "grapheme-ascii", minLength: 40, maxLength: 60 }),
    );
    const state = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.array(state, { maxLength: 40 })), { maxLength: 5 }), (runs) => {
        const hash = new TextHash();
        for (const [s, hs] of runs) {
          hash.reset(s);
          // each state twice: the second answer comes from the table the first filled
          for (const h of [...hs, ...hs]) assert.equal(hash.from(h), fnv(h, s), `${JSON.stringify(s)} from ${h}`);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("equal joinKey of the row's values (text, key time, plain flag, partition)", () => {
    fc.assert(
      fc.property(table, fc.nat(2), ({ cols, rows }, keyIndex) => {
        const vs = vectors(cols, rows);
        const types = cols.map((c) => c.type);
        const ki = keyIndex % cols.length;
        const got = sideInput(types, [makeBatch(vs, rows.length)], -1, 0, { keyIndex: ki }, 2, (b) => [...b.columns]);
        let plain = true;
        for (let i = 0; i < rows.length; i++) {
          const vals = vs.map((v) => getValue(v, i));
          // a NULL in the key: its own text after the marker (stored by an outer join's preserved side), partition 0
          const nullKey = vals.some((v) => v === null);
          const key = nullKey ? NULL_KEY + joinKey(vals) : joinKey(vals);
          if (!nullKey && !plainKey(vals)) plain = false;
          assert.equal(got.keys[i], key);
          assert.equal(isNullKey(got.keys[i]!), nullKey);
          assert.equal(got.hashes[i], keyTextHash(key), `hash of row ${i}`);
          assert.equal(got.parts[i], nullKey ? 0 : partitionOf(key, 2));
          assert.ok(Object.is(got.keyTimes[i], vals[ki] === null ? Number.NaN : Number(endOf(vals[ki]))), `key time of row ${i}`);
        }
        assert.equal(got.keys.length, rows.length);
        assert.equal(got.plainKeys, plain);
      }),
      { numRuns: 400 },
    );
  });

  it("hash and partition as their text does, computed without the text (joinKeyHashes, the decode threads' routing)", () => {
    // integers of every digit count around the 10^9 split, negative ones, and the table's values
    const wideInt = fc.oneof(
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
      fc.maxSafeInteger(),
      fc.constantFrom(999_999_999, 1_000_000_000, -1_000_000_001, 1_700_000_000_000_000, -(2 ** 53 - 1), 2 ** 53),
    );
    const wide = fc.oneof(wideInt, fc.constantFrom(0.1, -2.5e-7, 2 ** 70, -0), fc.double());
    const wideCol = fc.constantFrom<Col>(
      { type: LongType, value: wideInt },
      { type: TimestampType, value: wideInt },
      { type: DoubleType, value: wide },
    );
    const mixed = fc
      .array(fc.oneof(column, wideCol), { minLength: 1, maxLength: 3 })
      .chain((cols) => fc.record({ cols: fc.constant(cols), rows: fc.array(fc.tuple(...cols.map((c) => c.value)), { maxLength: 16 }) }));
    fc.assert(
      fc.property(mixed, fc.constantFrom(1, 2, 7, 200), ({ cols, rows }, numPartitions) => {
        const vs = vectors(cols, rows);
        const got = joinKeyHashes(vs, rows.length, numPartitions);
        for (let i = 0; i < rows.length; i++) {
          const vals = vs.map((v) => getValue(v, i));
          const nullKey = vals.some((v) => v === null);
          const key = nullKey ? NULL_KEY + joinKey(vals) : joinKey(vals);
          assert.equal(got.hashes[i], keyTextHash(key), `row ${i}: ${key}`);
          assert.equal(got.parts[i], nullKey ? 0 : partitionOf(key, numPartitions), `row ${i}: ${key}`);
        }
      }),
      { numRuns: 600 },
    );
  });

  it("reuse a window's text only while its fields repeat, NULL fields included", () => {
    const type = StructOf([field("start", TimestampType), field("end", TimestampType)]);
    const rows = [
      { start: 0, end: 5 },
      { start: 0, end: 5 },
      { start: null, end: 5 },
      { start: 0, end: 5 },
      { start: 0, end: 6 },
    ];
    const w = vectorFromValues(type, rows);
    const got = sideInput([type], [makeBatch([w], rows.length)], -1, 0, { keyIndex: 0 }, 1, (b) => [...b.columns]);
    assert.deepEqual(got.keys, [
      '[{"start":0,"end":5}]',
      '[{"start":0,"end":5}]',
      '[{"start":null,"end":5}]',
      '[{"start":0,"end":5}]',
      '[{"start":0,"end":6}]',
    ]);
    assert.deepEqual([...got.keyTimes], [5, 5, 5, 5, 6]);
    assert.equal(got.plainKeys, false);
  });

  it("drop the rows at or below the late watermark; a NULL time is never late (Spark's predicate is NULL)", () => {
    const ts = vectorFromValues(TimestampType, [5, 10, null, 11]);
    const got = sideInput([TimestampType], [makeBatch([ts], 4)], 0, 10, null, 1, (b) => [...b.columns]);
    assert.deepEqual([...got.rows], [2, 3]);
    assert.equal(got.keys[1], "[11]");
    assert.equal(got.late, 2);
  });
});

describe("columnar join table from vectors", () => {
  it("appendFrom stores what append of the row's values stores; gatherColumn reads it as vectorFromValues", () => {
    fc.assert(
      fc.property(table, fc.array(fc.integer({ min: -1, max: 40 }), { maxLength: 20 }), ({ cols, rows }, picks) => {
        const types = cols.map((c) => c.type);
        const vs = vectors(cols, rows);
        // Two partitions, as the join side keeps them: rows alternate between them.
        const fromVectors = [new JoinSideTable(types), new JoinSideTable(types)];
        const fromValues = [new JoinSideTable(types), new JoinSideTable(types)];
        for (let i = 0; i < rows.length; i++) {
          fromVectors[i % 2]!.appendFrom("[1]", keyTextHash("[1]"), 0, vs, i, false);
          fromValues[i % 2]!.append(
            "[1]",
            0,
            vs.map((v) => getValue(v, i)),
            0,
            false,
          );
        }
        const refs = picks.map((p) => (p < 0 || p >= rows.length ? -1 : Math.floor(p / 2) * 2 + (p % 2)));
        for (let c = 0; c < types.length; c++) {
          const want = vectorFromValues(
            types[c]!,
            refs.map((r) => (r < 0 ? null : fromValues[r % 2]!.value(Math.floor(r / 2), c))),
          );
          const got = gatherColumn(
            fromVectors.map((t) => t.cols[c]!),
            types[c]!,
            refs,
          );
          assert.equal(got.length, want.length);
          for (let k = 0; k < refs.length; k++) assert.deepEqual(getValue(got, k), getValue(want, k), `column ${c}, ref ${refs[k]}`);
          for (let r = 0; r < rows.length; r++)
            assert.deepEqual(fromVectors[r % 2]!.value(Math.floor(r / 2), c), fromValues[r % 2]!.value(Math.floor(r / 2), c));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("join state files: keys", () => {
  it("read back joined, and per key when a key is not well-formed or holds the separator", async () => {
    for (const keys of [
      ['[1,{"start":0,"end":10}]', "[2]", '["x"]'],
      ["[1]", '["\ud800"]'],
      ["[1]", '["a\u0001b"]', "[3]"],
    ]) {
      const dir = mkdtempSync(path.join(tmpdir(), "arus-join-keys-"));
      dirs.push(dir);
      const opts = { minDeltasForSnapshot: 100, minBatchesToRetain: 100 };
      const p = new ColumnarJoinProvider(dir, [LongType], opts);
      const s = await p.getStore(0);
      for (const [i, k] of keys.entries()) s.table.append(k, Number.NaN, [i], 0, i === 0);
      await s.commit();
      // The file holds the keys as one string where that can work.
      const joined = Buffer.from(keys.join("\u0001"));
      assert.equal(readFileSync(path.join(dir, "1.delta")).includes(joined), keys.length === 3 && !keys[1]!.includes("\u0001"));
      const q = new ColumnarJoinProvider(dir, [LongType], opts);
      const t = (await q.getStore(1)).table;
      for (const [i, k] of keys.entries()) {
        const out: number[] = [];
        assert.equal(t.rowsOf(k, keyTextHash(k), out), 1, `key ${JSON.stringify(k)}`);
        assert.deepEqual([t.value(out[0]!, 0), t.matched(out[0]!)], [i, i === 0]);
      }
    }
  });
});
