// to_json(struct(...)) as UTF-8 bytes (arus.columnar.utf8Strings on) must give the text the
// string path gives, and the Kafka sink's records must carry exactly its UTF-8 encoding.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { utf8Of } from "../../src/columnar/utf8.js";
import { setUtf8Strings } from "../../src/columnar/utf8-conf.js";
import { makeVector, vectorFromValues } from "../../src/columnar/vector.js";
import { toRecords } from "../../src/connectors/kafka/records-out.js";
import "../../src/functions/index.js";
import { lookupFunction, type ScalarFunction } from "../../src/functions/registry.js";
import { parseSchema } from "../../src/sql/datatype.js";
import { assertCanonicalUtf8 } from "../columnar/utf8-check.js";

const schema = parseSchema("s STRING, n BIGINT, d DOUBLE, a ARRAY<STRING>");
const toJson = lookupFunction("to_json") as ScalarFunction;
const ctx = { timeZone: "UTC", ansi: false } as never;

/** to_json over these rows (null = a NULL struct) with the flag set. */
function run(rows: readonly (Record<string, unknown> | null)[], on: boolean) {
  const n = rows.length;
  const children = schema.fields.map((f) =>
    vectorFromValues(
      f.type,
      rows.map((r) => (r === null ? null : (r[f.name] ?? null))),
    ),
  );
  const validity = rows.some((r) => r === null) ? Uint8Array.from(rows, (r) => (r === null ? 0 : 1)) : null;
  const struct = makeVector(schema, [], validity, n, children);
  setUtf8Strings(on);
  try {
    return toJson.kernel([struct], n, ctx);
  } finally {
    setUtf8Strings(true);
  }
}

const text = fc.string({ unit: fc.constantFrom("a", "é", "€", "😀", "\n", "\r", '"', "\\", "\u2028", "\ud800", "\udc00") });
const row = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 6,
    arbitrary: fc.record(
      {
        s: fc.option(text),
        n: fc.option(fc.integer()),
        d: fc.option(fc.double()),
        a: fc.option(fc.array(fc.option(text), { maxLength: 3 })),
      },
      { requiredKeys: [] },
    ),
  },
);

describe("to_json on bytes", () => {
  it("the same text with the flag on and off; the sink writes its UTF-8 bytes", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), (rows) => {
        const on = run(rows, true);
        const off = run(rows, false);
        assert.deepStrictEqual(on.values, off.values);
        assert.deepStrictEqual(on.validity ? [...on.validity] : null, off.validity ? [...off.validity] : null);
        // UTF-8 unless a lone surrogate is written raw (then strings, as before)
        if (utf8Of(on) !== undefined) assertCanonicalUtf8([{ numRows: rows.length, columns: [on] }]);
        const layout = { value: 0, key: null, topic: null, partition: null, headers: null };
        const records = toRecords(layout, [{ numRows: rows.length, columns: [on] }], "t");
        records.forEach((r, i) => {
          const s = off.values[i] as string | null;
          assert.deepStrictEqual(r.value === null ? null : Buffer.from(r.value), s === null ? null : Buffer.from(s, "utf8"));
        });
      }),
      { numRuns: 300 },
    );
  });

  it("is a UTF-8 vector over one encoding of the text, NULL rows empty", () => {
    const v = run([{ s: "é", n: 1 }, null, { a: ["x"] }], true);
    const u = utf8Of(v);
    assert.ok(u);
    assert.deepStrictEqual(v.values, ['{"s":"é","n":1}', null, '{"a":["x"]}']);
    assert.equal(u.offsets[2], u.offsets[1]);
  });
});
