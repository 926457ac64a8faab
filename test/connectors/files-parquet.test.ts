import assert from "node:assert/strict";
import { readFile as fsReadFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { inferFileSchema, listInputFiles, readFiles, writeFiles } from "../../src/connectors/files/index.js";
import {
  ArrayOf,
  BinaryType,
  BooleanType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  StringType,
  StructOf,
  simpleString,
  TimestampType,
} from "../../src/types/datatypes.js";
import { batchOf, rowsOf, tempDir, utcMicros } from "./helpers.js";

const schema = StructOf([
  field("id", LongType),
  field("n", IntegerType),
  field("v", DoubleType),
  field("ok", BooleanType),
  field("name", StringType),
  field("ts", TimestampType),
  field("d", DateType),
  field("raw", BinaryType),
  field("tags", ArrayOf(StringType)),
  field("pos", StructOf([field("x", DoubleType), field("label", StringType)])),
]);
const t = utcMicros(2026, 10, 16, 14, 2, 30, 123456);
const rows = [
  [1, 10, 1.5, 1, "plain", t, 20742, new Uint8Array([0, 255]), ["a", null], { x: 1, label: "p" }],
  [2 ** 53 - 1, -2147483648, -0.0, 0, "ünïcödé ✓ 😀 日本", -1, -1, new Uint8Array([]), [], { x: null, label: null }],
  [null, null, null, null, null, null, null, null, null, null],
  [-42, 7, Number.NaN, 1, "", 0, 0, new Uint8Array([7]), ["z"], null],
];

describe("parquet", () => {
  it("round-trips every type with nulls, timestamps to the microsecond", async () => {
    const dir = join(await tempDir(), "pq");
    const files = await writeFiles("parquet", dir, schema, [batchOf(schema, rows)], {}, "error", "UTC");
    assert.match(files[0]!, /part-00000-.*-c000\.snappy\.parquet$/);
    const listed = await listInputFiles(dir);
    assert.deepStrictEqual(listed, files);
    const inferred = await inferFileSchema("parquet", listed, {}, "UTC");
    assert.equal(simpleString(inferred), simpleString(schema));
    assert.deepStrictEqual(rowsOf(await readFiles("parquet", listed, inferred, {}, "UTC")), rows);
  });

  it("writes files another library (hyparquet) reads correctly", async () => {
    const dir = join(await tempDir(), "pq");
    // Snappy (Spark's default): hyparquet decodes it without its optional codec package.
    const [f] = await writeFiles("parquet", dir, schema, [batchOf(schema, rows)], {}, "error", "UTC");
    const buf = await fsReadFile(f!);
    const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
    const meta = parquetMetadata(file);
    assert.equal(Number(meta.num_rows), 4);
    assert.equal(meta.row_groups[0]!.columns[0]!.meta_data!.codec, "SNAPPY");
    const ts = meta.schema.find((s) => s.name === "ts")!;
    assert.deepStrictEqual(ts.logical_type, { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MICROS" });
    const objs = (await parquetReadObjects({ file, utf8: true })) as Record<string, unknown>[];
    assert.equal(objs.length, 4);
    assert.deepStrictEqual(objs[0], {
      id: 1n,
      n: 10,
      v: 1.5,
      ok: true,
      name: "plain",
      ts: new Date(Math.floor(t / 1000)),
      d: new Date(20742 * 86_400_000),
      raw: "\u0000\uFFFD",
      tags: ["a", null],
      pos: { x: 1, label: "p" },
    });
    assert.equal(objs[1]!.id, BigInt(2 ** 53 - 1));
    assert.equal(objs[1]!.name, "ünïcödé ✓ 😀 日本");
    assert.ok(Object.values(objs[2]!).every((v) => v === null));
    assert.ok(Number.isNaN(objs[3]!.v));
  });

  it("writes zstd and uncompressed files", async () => {
    for (const [codec, ext] of [
      ["zstd", /-c000\.zstd\.parquet$/],
      ["none", /-c000\.parquet$/],
    ] as const) {
      const dir = join(await tempDir(), "pq");
      const [f] = await writeFiles("parquet", dir, schema, [batchOf(schema, rows)], { compression: codec }, "error", "UTC");
      assert.match(f!, ext);
      assert.deepStrictEqual(rowsOf(await readFiles("parquet", [f!], schema, {}, "UTC")), rows);
    }
  });

  it("reads by column name: projection, reordering, missing columns and int → bigint widening", async () => {
    const dir = join(await tempDir(), "pq");
    await writeFiles("parquet", dir, schema, [batchOf(schema, rows)], {}, "error", "UTC");
    const files = await listInputFiles(dir);
    const s2 = StructOf([field("NAME", StringType), field("n", LongType), field("missing", IntegerType)]);
    assert.deepStrictEqual(rowsOf(await readFiles("parquet", files, s2, {}, "UTC")), [
      ["plain", 10, null],
      ["ünïcödé ✓ 😀 日本", -2147483648, null],
      [null, null, null],
      ["", 7, null],
    ]);
    await assert.rejects(
      readFiles("parquet", files, StructOf([field("name", IntegerType)]), {}, "UTC"),
      /PARQUET_COLUMN_DATA_TYPE_MISMATCH/,
    );
  });

  it("an empty write still leaves a readable file with the schema", async () => {
    const dir = join(await tempDir(), "pq");
    const files = await writeFiles("parquet", dir, schema, [], {}, "error", "UTC");
    assert.equal(files.length, 1);
    assert.equal(simpleString(await inferFileSchema("parquet", files, {}, "UTC")), simpleString(schema));
    assert.deepStrictEqual(rowsOf(await readFiles("parquet", files, schema, {}, "UTC")), []);
  });
});
