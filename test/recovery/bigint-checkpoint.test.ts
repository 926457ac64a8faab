// Issue 17: checkpoints written while BIGINT was a double (Float64 state columns, msgpack rows of
// numbers) resume under the exact 64-bit lane, and their state then takes values past 2^53.
import assert from "node:assert/strict";
import { cpSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { ROOT, runOnce } from "../fixtures/checkpoint-bigint-double/query.js";

const FIXTURE = join(import.meta.dirname, "..", "fixtures", "checkpoint-bigint-double");

describe("a BIGINT-as-double checkpoint resumes exactly", () => {
  after(() => rmSync(ROOT, { recursive: true, force: true }));
  for (const store of ["columnar", "row"]) {
    it(`${store} state`, async () => {
      rmSync(ROOT, { recursive: true, force: true });
      cpSync(join(FIXTURE, "input"), join(ROOT, "input"), { recursive: true });
      cpSync(join(FIXTURE, `checkpoint-${store}`), join(ROOT, `checkpoint-${store}`), { recursive: true });
      const second = join(ROOT, "input", "b.json");
      writeFileSync(
        second,
        '{"id":9007199254740993,"v":1}\n{"id":-5,"v":4503599627370497}\n{"id":1,"v":10}\n{"id":9007199254740991,"v":1}\n',
      );
      utimesSync(second, new Date(1_700_000_100_000), new Date(1_700_000_100_000));
      const session = Session.builder().appName(`bigint-ck-${store}`).config("spark.sql.session.timeZone", "UTC").getOrCreate();
      await runOnce(session, `checkpoint-${store}`, `resumed_${store}`);
      const rows = await session.sql(`SELECT * FROM resumed_${store} ORDER BY id`).collect();
      assert.deepEqual(rows, [
        { id: -5, s: 9007199254740993n, n: 2 }, // 2^52 + (2^52 + 1): past 2^53, exact
        { id: 1, s: 12, n: 2 },
        { id: 9007199254740991, s: 4, n: 2 },
        { id: 9007199254740993n, s: 1, n: 1 }, // a new key a double would have merged with 2^53
      ]);
    });
  }
});
