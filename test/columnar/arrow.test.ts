import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as arrow from "apache-arrow";
import { batchToArrow } from "../../src/columnar/arrow-export.js";
import { arrowToBatch } from "../../src/columnar/arrow-import.js";
import { batchFromRows, rowValues } from "../../src/columnar/batch.js";
import {
  ArrayOf,
  BinaryType,
  BooleanType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  MapOf,
  StringType,
  StructOf,
  TimestampType,
  typesEqual,
} from "../../src/types/datatypes.js";

const schema = StructOf([
  field("i", IntegerType),
  field("l", LongType),
  field("d", DoubleType),
  field("b", BooleanType),
  field("s", StringType),
  field("ts", TimestampType),
  field("dt", DateType),
  field("bin", BinaryType),
  field("arr", ArrayOf(LongType)),
  field("st", StructOf([field("x", IntegerType), field("y", StringType)])),
  field("m", MapOf(StringType, DoubleType)),
]);

const ts = Date.UTC(2026, 9, 16, 14, 2, 30) * 1000 + 123456;
const rows: unknown[][] = [
  [
    1,
    2 ** 53 - 1,
    1.5,
    1,
    "héllo wörld ✓ 😀",
    ts,
    20_000,
    new Uint8Array([1, 2, 3]),
    [1, null, 3],
    { x: 7, y: "q" },
    new Map([["a", 1.5]]),
  ],
  [null, null, null, null, null, null, null, null, null, null, null],
  [-5, -(2 ** 40) - 3, -0.25, 0, "", -ts, -1, new Uint8Array([]), [], { x: null, y: null }, new Map()],
  [2147483647, -9007199254740991, Number.NaN, 1, "ascii", 0, 0, new Uint8Array([255]), [42], { x: -1, y: "日本" }, new Map([["k", null]])],
];

describe("arrow bridge", () => {
  it("round-trips every type, nulls and unicode strings", () => {
    const batch = batchFromRows(
      schema.fields.map((f) => f.type),
      rows,
    );
    const rb = batchToArrow(schema, batch);
    assert.equal(rb.numRows, 4);
    assert.equal(String(rb.schema.fields[5]!.type), "Timestamp<MICROSECOND, UTC>");
    assert.equal(rb.getChild("s")!.get(0), "héllo wörld ✓ 😀");
    assert.equal(rb.getChild("s")!.get(1), null);
    assert.equal(rb.getChild("l")!.get(0), BigInt(2 ** 53 - 1));
    const back = arrowToBatch(rb);
    assert.ok(typesEqual(back.schema, schema));
    for (let i = 0; i < rows.length; i++) assert.deepStrictEqual(rowValues(back.batch, i), rows[i]);
  });

  it("survives IPC and reads tables of several chunks", () => {
    const s = StructOf([field("n", LongType), field("s", StringType)]);
    const b1 = batchFromRows(
      [LongType, StringType],
      [
        [1, "a"],
        [null, "b"],
      ],
    );
    const b2 = batchFromRows([LongType, StringType], [[3, null]]);
    const table = new arrow.Table([batchToArrow(s, b1), batchToArrow(s, b2)]);
    const again = arrow.tableFromIPC(arrow.tableToIPC(table, "stream"));
    const { batch } = arrowToBatch(again);
    assert.equal(batch.numRows, 3);
    assert.deepStrictEqual(
      [0, 1, 2].map((i) => rowValues(batch, i)),
      [
        [1, "a"],
        [null, "b"],
        [3, null],
      ],
    );
  });

  it("shares numeric buffers and reads other Arrow encodings", () => {
    const s = StructOf([field("d", DoubleType)]);
    const batch = batchFromRows([DoubleType], [[1], [2]]);
    const rb = batchToArrow(s, batch);
    assert.equal(rb.getChildAt(0)!.data[0]!.values.buffer, (batch.columns[0]!.values as Float64Array).buffer);

    // Arrow's own builders: dictionary strings, millisecond timestamps, int16 (SMALLINT), sliced vectors.
    const t = new arrow.Table({
      cat: arrow.vectorFromArray(["x", "y", null, "x"], new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32())),
      ms: arrow.vectorFromArray([new Date(1000), null, new Date(-1), new Date(0)], new arrow.TimestampMillisecond()),
      small: arrow.vectorFromArray([1, -2, 3, null], new arrow.Int16()),
      flag: arrow.vectorFromArray([true, false, null, true], new arrow.Bool()),
    });
    const { schema: sch, batch: b } = arrowToBatch(t.slice(1));
    assert.deepStrictEqual(
      sch.fields.map((f) => f.type.kind),
      ["string", "timestamp", "smallint", "boolean"],
    );
    assert.deepStrictEqual(
      [0, 1, 2].map((i) => rowValues(b, i)),
      [
        ["y", null, -2, 0],
        [null, -1000, 3, null],
        ["x", 0, null, 1],
      ],
    );
  });
});
