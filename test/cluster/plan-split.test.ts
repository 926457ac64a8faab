/**
 * Group mode's plan split and repartition records, without a broker: which plans split where,
 * which are refused, the routing key, and rows crossing the repartition topic unchanged.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { outputOf } from "../../src/analyzer/types.js";
import { batchFromRows, rowValues } from "../../src/columnar/batch.js";
import { F, Session } from "../../src/index.js";
import { optimize } from "../../src/optimizer/optimizer.js";
import { splitPlan } from "../../src/runtime/cluster/plan-split.js";
import { decodeRows, encodeRows, routeRows } from "../../src/runtime/cluster/repartition.js";
import { LongType, StringType, TimestampType } from "../../src/types/datatypes.js";

const session = Session.builder().config("spark.sql.session.timeZone", "UTC").getOrCreate();
const kafka = () => session.readStream.format("kafka").option("kafka.bootstrap.servers", "127.0.0.1:1").option("subscribe", "in").load();
const events = () =>
  kafka()
    .select(F.from_json(F.col("value").cast("string"), "id BIGINT, k STRING, v BIGINT, ts TIMESTAMP").alias("e"))
    .select("e.*");
const split = (df: ReturnType<typeof kafka>) => splitPlan(optimize(df.plan, new Set()));

describe("group mode: plan split", () => {
  it("a stateless query is stage A alone", () => {
    const s = split(events().select(F.col("id"), F.col("k")));
    assert.equal(s.stageB, null);
    assert.equal(s.source.format, "kafka");
    assert.deepEqual(s.routeColumns, []);
  });

  it("a windowed aggregation cuts under the watermark and routes by the non-window key", () => {
    const df = events()
      .withWatermark("ts", "5 seconds")
      .groupBy(F.window(F.col("ts"), "10 seconds"), F.col("k"))
      .agg(F.count("*").alias("n"), F.sum("v").alias("s"));
    const s = split(df);
    assert.ok(s.stageB);
    assert.equal(s.statefulKind, "aggregate");
    // Stage A stops below the watermark: it has no watermark node, stage B has it.
    const kinds = (p: import("../../src/plan/logical.js").LogicalPlan): string[] => [
      p.kind,
      ...(("child" in p && p.child ? kinds(p.child as never) : []) as string[]),
    ];
    assert.ok(!kinds(s.stageA).includes("watermark"));
    assert.ok(kinds(s.stageB!).includes("watermark"));
    const out = outputOf(s.stageA).map((a) => a.name);
    assert.deepEqual(
      s.routeColumns.map((i) => out[i]),
      ["k"],
    );
    assert.deepEqual(
      s.repartitionOutput.map((a) => a.name),
      out,
    );
  });

  it("dropDuplicates routes by its keys", () => {
    const s = split(events().dropDuplicates(["id"]));
    assert.equal(s.statefulKind, "deduplicate");
    const out = outputOf(s.stageA).map((a) => a.name);
    assert.deepEqual(
      s.routeColumns.map((i) => out[i]),
      ["id"],
    );
  });

  it("refuses what group mode cannot run, naming it", () => {
    const agg = events().groupBy("k").count();
    assert.throws(() => split(agg.groupBy("count").count()), /UNSUPPORTED_IN_GROUP_MODE|more than one stateful operator/);
    const other = session.readStream.format("rate").load();
    assert.throws(() => split(other), /rate source/);
    const a = events().withWatermark("ts", "1 second").alias("a");
    const b = events().withWatermark("ts", "1 second").alias("b");
    assert.throws(() => split(a.join(b, F.expr("a.id = b.id"))), /2 streaming sources/);
  });
});

describe("group mode: repartition records", () => {
  const types = [LongType, StringType, TimestampType];
  const row = fc.tuple(
    fc.oneof(fc.constant(null), fc.integer({ min: -1e9, max: 1e9 })),
    fc.oneof(fc.constant(null), fc.string({ maxLength: 8 })),
    fc.oneof(
      fc.constant(null),
      fc.integer({ min: 0, max: 2e9 }).map((x) => x * 1000),
    ),
  );

  it("rows cross the topic unchanged, and equal keys always meet in one partition", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 60 }), fc.integer({ min: 1, max: 7 }), (rows, partitions) => {
        const batch = batchFromRows(types, rows);
        const routed = routeRows([batch], [1], partitions);
        const seen = new Map<unknown, number>();
        let total = 0;
        for (const [p, rs] of routed) {
          assert.ok(p >= 0 && p < partitions);
          const back = decodeRows(types, encodeRows(rs), "test");
          assert.deepEqual(
            Array.from({ length: back.numRows }, (_, i) => rowValues(back, i)),
            rs,
          );
          for (const r of rs) {
            const prev = seen.get(r[1]);
            assert.ok(prev === undefined || prev === p, `key ${String(r[1])} in partitions ${prev} and ${p}`);
            seen.set(r[1], p);
          }
          total += rs.length;
        }
        assert.equal(total, rows.length);
      }),
    );
  });

  it("a record that is not a row list names where it came from", () => {
    assert.throws(() => decodeRows(types, Buffer.from([0xc1]), "t-3@17"), /t-3@17/);
  });
});
