// A stored right row that a later left row matches is flagged matched (Spark's getJoinedRows
// flags the other side's stored row whichever side probes): when the watermark evicts it, a
// right or full outer join must not emit it again with NULLs for the left side.
import { describe, it } from "node:test";
import { functions as F } from "../../src/index.js";
import { addData, checkNewRows, processAllAvailable, testStream } from "../../src/testing/index.js";
import { sec, utcSession } from "./helpers.js";

const session = utcSession();

function impClk(how: "right_outer" | "full_outer") {
  const imp = session.memoryStream("ad INT, it TIMESTAMP");
  const clk = session.memoryStream("cad INT, ct TIMESTAMP");
  const df = imp
    .toDF()
    .withWatermark("it", "5 seconds")
    .join(clk.toDF().withWatermark("ct", "5 seconds"), F.expr("ad = cad AND ct >= it AND ct <= it + interval 10 seconds"), how);
  return { imp, clk, df };
}

describe("outer stream-stream join, right row stored before its left match", () => {
  for (const how of ["right_outer", "full_outer"] as const) {
    it(`${how}: the evicted right row that matched a later left row is not emitted with NULLs`, async () => {
      const { imp, clk, df } = impClk(how);
      await testStream(df, "append", [
        addData(clk, [
          { cad: 1, ct: sec(5) },
          { cad: 2, ct: sec(6) },
        ]),
        checkNewRows([]),
        addData(imp, [{ ad: 1, it: sec(2) }]),
        checkNewRows([{ ad: 1, it: sec(2), cad: 1, ct: sec(5) }]),
        // Both watermarks pass :55: every row above is evicted; only the unmatched click 2
        // (and, for full outer, nothing on the left: impression 1 matched) gets NULLs.
        addData(imp, [{ ad: 9, it: sec(60) }]),
        addData(clk, [{ cad: 9, ct: sec(61) }]),
        processAllAvailable(),
        checkNewRows([
          { ad: 9, it: sec(60), cad: 9, ct: sec(61) },
          { ad: null, it: null, cad: 2, ct: sec(6) },
        ]),
      ]);
    });
  }
});
