// from_json(CAST(value AS STRING)) over Kafka-like batches must give the same rows whichever
// layout the batch has: `arus.columnar.utf8Strings` on (value as one buffer + offsets, the cast
// a UTF-8 vector over those bytes) or off (a Buffer view per record), and the same rows as
// from_json over the values decoded into JS strings first (the cast's own per-row text), and
// over those strings as a UTF-8 STRING vector.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { DataFrame } from "../../src/api/dataframe.js";
import { makeBatch } from "../../src/columnar/batch.js";
import { binaryOf } from "../../src/columnar/binary.js";
import { binaryText } from "../../src/columnar/binary-utf8.js";
import { utf8FromStrings, utf8Of, utf8Vector } from "../../src/columnar/utf8.js";
import { ColumnsBuilder } from "../../src/connectors/kafka/record-batch.js";
import { columnsToBatch, kafkaSchema } from "../../src/connectors/kafka/rows.js";
import { castVector } from "../../src/functions/cast.js";
import { functions as F, Session } from "../../src/index.js";
import { attribute } from "../../src/plan/expressions.js";
import { Plans } from "../../src/plan/logical.js";
import { StringType } from "../../src/types/datatypes.js";
import { assertCanonicalUtf8 } from "../columnar/utf8-check.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const SCHEMA = "a INT, s STRING, t STRUCT<x: DOUBLE, y: ARRAY<STRING>>, ts TIMESTAMP";

/** A DataFrame over one Kafka source batch of these values (built under the current conf). */
function kafkaFrame(values: readonly (Uint8Array | null)[]): DataFrame {
  const c = new ColumnsBuilder(values.length);
  values.forEach((v, i) => {
    c.keys.push(Buffer.from(`k${i}`), 0, 2);
    c.values.push(Buffer.from(v ?? []), 0, v === null ? -1 : v.length);
    c.push(i, 1000 + i, 0, []);
  });
  const schema = kafkaSchema(false);
  const batch = columnsToBatch(schema, { topic: "t", partition: 0 }, c);
  const output = schema.fields.map((f) => attribute(f.name, f.type, f.nullable));
  return new DataFrame(session as never, Plans.localRelation(output, [batch]));
}

function withUtf8<T>(on: boolean, f: () => T): T {
  session.conf.set("arus.columnar.utf8Strings", String(on));
  try {
    return f();
  } finally {
    session.conf.unset("arus.columnar.utf8Strings");
  }
}

async function parsed(values: readonly (Uint8Array | null)[], on: boolean): Promise<unknown[]> {
  const df = withUtf8(on, () => kafkaFrame(values));
  session.conf.set("arus.columnar.utf8Strings", String(on));
  try {
    const rows = await df
      .select(F.from_json(F.col("value").cast("string"), SCHEMA).alias("j"), F.col("value").cast("string").alias("v"))
      .collect();
    return rows.map((r) => ({ ...r }));
  } finally {
    session.conf.unset("arus.columnar.utf8Strings");
  }
}

const text = fc.string({ unit: fc.constantFrom("a", "é", "€", "😀", "\n", "\r", " ", '"', "\\", "\u2028", "{", "}") });
const record = fc
  .record(
    {
      a: fc.oneof(fc.integer(), fc.constant(null), fc.string()),
      s: fc.oneof(text, fc.constant(null), fc.integer()),
      t: fc.record(
        { x: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant("x")), y: fc.array(text, { maxLength: 3 }) },
        { requiredKeys: [] },
      ),
      ts: fc.constantFrom("2024-01-01T00:00:00Z", "2024-02-30", "not a time"),
    },
    { requiredKeys: [] },
  )
  .chain((o) =>
    fc.constantFrom(
      JSON.stringify(o),
      JSON.stringify(o, null, 1), // line breaks between tokens
      ` \t${JSON.stringify(o)}  `,
      `[${JSON.stringify(o)}]`,
      JSON.stringify(o).slice(0, -1), // truncated
    ),
  );
const value: fc.Arbitrary<Uint8Array | null> = fc.oneof(
  { weight: 6, arbitrary: record.map((s) => new Uint8Array(Buffer.from(s, "utf8"))) },
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("", "   ", "\n", "null", "1", '"x"', "{}", '\ufeff{"a":1}').map((s) => new Uint8Array(Buffer.from(s))),
  },
  // bytes that need not be UTF-8 (lone continuation bytes, truncated sequences, surrogates)
  {
    weight: 2,
    arbitrary: fc
      .uint8Array({ maxLength: 12 })
      .map((b) => new Uint8Array(Buffer.concat([Buffer.from('{"s":"'), b, Buffer.from('","a":1}')]))),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 8 }) },
);

describe("from_json over Kafka values on bytes", () => {
  it("same rows with arus.columnar.utf8Strings on and off, and as over per-row strings", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 40 }), async (values) => {
        const on = await parsed(values, true);
        const off = await parsed(values, false);
        assert.deepStrictEqual(on, off);
        const strings = session.createDataFrame(
          values.map((v) => ({ v: v === null ? null : binaryText.decode(v) })),
          "v STRING",
        );
        const expected = (await strings.select(F.from_json(F.col("v"), SCHEMA).alias("j"), F.col("v")).collect()).map((r) => ({ ...r }));
        assert.deepStrictEqual(on, expected);
        // from_json over a UTF-8 STRING vector (a file source's column): its bytes, scanned as they are
        const u = utf8FromStrings(values.map((v) => (v === null ? null : binaryText.decode(v))))!;
        const validity = Uint8Array.from(values, (v) => (v === null ? 0 : 1));
        const output = [attribute("v", StringType)];
        const utf8Df = new DataFrame(
          session as never,
          Plans.localRelation(output, [makeBatch([utf8Vector(StringType, u, validity, values.length)], values.length)]),
        );
        const overUtf8 = (await utf8Df.select(F.from_json(F.col("v"), SCHEMA).alias("j"), F.col("v")).collect()).map((r) => ({ ...r }));
        assert.deepStrictEqual(overUtf8, expected);
      }),
      { numRuns: 150 },
    );
  });

  it("CAST(value AS STRING) is a UTF-8 vector over the value bytes; invalid UTF-8 becomes U+FFFD as per row", () => {
    const values = [Buffer.from('{"a":1}'), null, Buffer.from([0x61, 0xff, 0x62]), Buffer.from([0xe2, 0x82]), Buffer.from("\ufeffé€")];
    const batch = withUtf8(true, () => {
      const c = new ColumnsBuilder(4);
      for (const v of values) {
        c.keys.push(Buffer.alloc(0), 0, -1);
        c.values.push(Buffer.from(v ?? []), 0, v === null ? -1 : v.length);
        c.push(0, 0, 0, []);
      }
      return columnsToBatch(kafkaSchema(false), { topic: "t", partition: 0 }, c);
    });
    const bin = batch.columns[1]!;
    assert.ok(binaryOf(bin), "the value column keeps its bytes");
    const cast = withUtf8(true, () => castVector(bin, StringType, batch.numRows, { timeZone: "UTC", ansi: false } as never));
    assert.ok(utf8Of(cast), "the cast is a UTF-8 vector");
    assertCanonicalUtf8([{ numRows: cast.length, columns: [cast] }]);
    assert.deepStrictEqual(cast.values, ['{"a":1}', null, "a\ufffdb", "\ufffd", "\ufeffé€"]);
    // the same text as the per-row cast gives
    const perRow = castVector(
      { type: bin.type, length: bin.length, validity: bin.validity, values: [...bin.values] },
      StringType,
      batch.numRows,
      {
        timeZone: "UTC",
        ansi: false,
      } as never,
    );
    assert.deepStrictEqual(perRow.values, cast.values);
  });
});
