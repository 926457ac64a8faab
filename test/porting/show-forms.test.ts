/** PySpark's show() forms: show(false), show(n, truncate), show(n, truncate, vertical), show({ ... }). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { utcSession } from "../engine/helpers.js";

const session = utcSession();
const df = () =>
  session.createDataFrame(
    [
      { name: "Tom", note: "a note longer than twenty characters" },
      { name: "Alice", note: "short" },
      { name: "Bob", note: "x" },
    ],
    "name STRING, note STRING",
  );

const FULL = `+-----+------------------------------------+
|name |note                                |
+-----+------------------------------------+
|Tom  |a note longer than twenty characters|
|Alice|short                               |
|Bob  |x                                   |
+-----+------------------------------------+
`;

describe("show forms", () => {
  it("show(false) is Scala's show(truncate = false): all rows, cells in full", async () => {
    assert.equal(await df().showString(false), FULL);
    assert.equal(await df().showString(20, false), FULL);
    assert.equal(await df().showString({ truncate: false }), FULL);
  });
  it("show(n, truncateInt) cuts cells to that many characters", async () => {
    assert.equal(
      await df().showString(2, 8),
      `+-----+--------+
| name|    note|
+-----+--------+
|  Tom|a not...|
|Alice|   short|
+-----+--------+
only showing top 2 rows
`,
    );
  });
  it("vertical: Spark's -RECORD blocks, footer and (0 rows)", async () => {
    assert.equal(
      await df().select("name").showString(2, true, true),
      `-RECORD 0-----
 name | Tom   
-RECORD 1-----
 name | Alice 
only showing top 2 rows
`,
    );
    assert.equal(await df().limit(0).showString({ vertical: true }), "(0 rows)\n");
    assert.equal(
      await df().limit(1).showString({ n: 5, truncate: 5, vertical: true }),
      `-RECORD 0-----
 name | Tom   
 note | a ... 
`,
    );
  });
  it("wrong argument types say what show() takes", async () => {
    await assert.rejects(df().showString(1.5), /\[NOT_INT\] Argument `n` of show\(\) should be an int/);
    await assert.rejects(df().showString(true, 3), /show\(truncate\) takes one argument; with a row count write show\(n, truncate\)/);
    // biome-ignore lint/suspicious/noExplicitAny: untyped callers
    await assert.rejects(df().showString(2, "yes" as any), /\[NOT_BOOL\] Argument `truncate`/);
  });
});
