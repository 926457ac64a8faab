/**
 * Engine bug found while porting seed 002: reading a struct field (`window.start`) from a
 * batch with zero rows crashed ("Cannot read properties of undefined (reading 'type')"): the
 * getfield kernel took the field name from its literal argument's first value, and a literal
 * over zero rows has none. A streaming windowed count joined with a static table and then
 * selecting window.start hits it on every trigger that emits no window.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { functions as F, type Row, Session } from "../../src/index.js";

const spark = Session.builder()
  .appName("empty-struct-field")
  .config("spark.sql.shuffle.partitions", "2")
  .config("spark.sql.session.timeZone", "UTC")
  .getOrCreate();

test("selecting and filtering on a struct field of an empty DataFrame", async () => {
  const empty = spark.createDataFrame([], "id INT, w STRUCT<a: INT, b: STRING>");
  assert.deepEqual(await empty.select(F.col("w.b")).collect(), []);
  assert.deepEqual(await empty.where(F.col("w.a").gt(0)).collect(), []);
  const k = spark.createDataFrame([{ id: 1, k: "x" }], "id INT, k STRING");
  assert.deepEqual(await empty.join(k, "id").select(F.col("w.b"), "k").collect(), []);
});

test("windowed count + stream-static join + select window.start, append mode", async () => {
  const kategori = spark.createDataFrame(
    [
      ["Rok Tenun", "pakaian"],
      ["Tas Rotan", "aksesoris"],
    ],
    "produk STRING, kategori STRING",
  );
  const ms = spark.memoryStream("produk STRING, event_time TIMESTAMP");
  const out: Row[] = [];
  const q = await ms
    .toDF()
    .withWatermark("event_time", "4 seconds")
    .groupBy(F.window("event_time", "8 seconds"), F.col("produk"))
    .count()
    .join(kategori, "produk")
    .select(F.col("window.start").alias("mulai"), "produk", "kategori", "count")
    .writeStream.outputMode("append")
    .foreachBatch(async (df) => {
      out.push(...(await df.collect()));
    })
    .start();
  ms.addData([{ produk: "Rok Tenun", event_time: new Date(1000) }]);
  await q.processAllAvailable();
  ms.addData([{ produk: "Tas Rotan", event_time: new Date(20_000) }]);
  await q.processAllAvailable();
  await q.stop();
  assert.equal(q.exception, null);
  assert.deepEqual(out, [{ mulai: new Date(0), produk: "Rok Tenun", kategori: "pakaian", count: 1 }]);
});
