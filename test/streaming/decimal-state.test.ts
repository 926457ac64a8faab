/**
 * Decimal sums in streaming aggregation state: exact across batches and across a restart from
 * the checkpoint (the state round-trips unscaled values of both lanes, in the columnar and the
 * row store), and a checkpoint whose state was written with the column as DOUBLE is refused with
 * a message that says what to do.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { addData, checkLastBatch, expectFailure, startStream, stopStream, testStream } from "../../src/testing/index.js";
import { utcSession } from "./helpers.js";

const session = utcSession();

describe("decimal sums in streaming state", () => {
  for (const [type, big] of [
    // DECIMAL(5,2) sums are DECIMAL(15,2): numbers, kept in the columnar state store.
    ["DECIMAL(5,2)", "999.99"],
    ["DECIMAL(12,2)", "9999999999.99"],
    ["DECIMAL(30,2)", "9999999999999999999999999999.99"],
  ] as const) {
    it(`${type}: sum/avg/min/max stay exact across batches and a restart`, async () => {
      const ms = session.memoryStream(`k STRING, d ${type}`);
      const df = ms.toDF().groupBy("k").agg(F.sum("d").alias("s"), F.avg("d").alias("a"), F.min("d").alias("lo"), F.max("d").alias("hi"));
      await testStream(df, "update", [
        addData(ms, [
          { k: "a", d: "0.10" },
          { k: "a", d: "0.20" },
          { k: "b", d: big },
        ]),
        checkLastBatch([
          { k: "a", s: "0.30", a: "0.150000", lo: "0.10", hi: "0.20" },
          { k: "b", s: big, a: `${big}0000`, lo: big, hi: big },
        ]),
        stopStream(),
        startStream(),
        addData(ms, [
          { k: "a", d: "0.01" },
          { k: "b", d: big },
        ]),
        checkLastBatch([
          { k: "a", s: "0.31", a: "0.103333", lo: "0.01", hi: "0.20" },
          { k: "b", s: (BigInt(big.replace(".", "")) * 2n).toString().replace(/(\d\d)$/, ".$1"), a: `${big}0000`, lo: big, hi: big },
        ]),
      ]);
    });
  }

  it("groups and deduplicates by a wide decimal key across a restart", async () => {
    const ms = session.memoryStream("id DECIMAL(30,0), n INT");
    const df = ms.toDF().groupBy("id").agg(F.sum("n").alias("n"));
    const id = "123456789012345678901234567890";
    await testStream(df, "update", [
      addData(ms, [
        { id, n: 1 },
        { id: "1", n: 1 },
      ]),
      checkLastBatch([
        { id, n: 1 },
        { id: "1", n: 1 },
      ]),
      stopStream(),
      startStream(),
      addData(ms, [{ id, n: 5 }]),
      checkLastBatch([{ id, n: 6 }]),
    ]);
  });

  it("refuses state written with the column as DOUBLE, naming the change", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "arus-dec-state-"));
    try {
      const old = session.memoryStream("k STRING, d DOUBLE");
      await testStream(
        old.toDF().groupBy("k").agg(F.sum("d").alias("s")),
        "update",
        [addData(old, [{ k: "a", d: 1.5 }]), checkLastBatch([{ k: "a", s: 1.5 }])],
        {
          checkpointLocation: dir,
        },
      );
      const ms = session.memoryStream("k STRING, d DECIMAL(12,2)");
      await testStream(
        ms.toDF().groupBy("k").agg(F.sum("d").alias("s")),
        "update",
        [
          addData(ms, [{ k: "a", d: "1.5" }]),
          expectFailure(
            /changed type: double -> decimal\(22,2\) \(state written when arus read DECIMAL as DOUBLE: to keep it, CAST the column AS DOUBLE/,
          ),
        ],
        { checkpointLocation: dir },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
