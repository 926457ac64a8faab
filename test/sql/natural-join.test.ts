/**
 * SQL's NATURAL [INNER | LEFT | RIGHT | FULL] JOIN: USING the columns both sides have (by name,
 * case-insensitively, in the left's order; none: every pair of rows). It was refused. Columns
 * and rows (as to_json of each row, sorted) are PySpark 4.3's.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";

const session = Session.builder().getOrCreate();

const PYSPARK: [string, string[], string[]][] = [
  [
    "SELECT * FROM VALUES (1, 'x'), (2, 'y') AS a(id, s) NATURAL JOIN VALUES (1, 'x', 'p') AS b(id, s, t)",
    ["id", "s", "t"],
    ['{"id":1,"s":"x","t":"p"}'],
  ],
  [
    "SELECT * FROM VALUES (1, 'x'), (2, 'y') AS a(id, s) NATURAL LEFT JOIN VALUES (1, 'x', 'p') AS b(id, s, t)",
    ["id", "s", "t"],
    ['{"id":1,"s":"x","t":"p"}', '{"id":2,"s":"y"}'],
  ],
  [
    "SELECT * FROM VALUES (1, 'x'), (2, 'y') AS a(id, s) NATURAL RIGHT OUTER JOIN VALUES (1, 'x', 'p'), (3, 'z', 'q') AS b(id, s, t)",
    ["id", "s", "t"],
    ['{"id":1,"s":"x","t":"p"}', '{"id":3,"s":"z","t":"q"}'],
  ],
  [
    "SELECT * FROM VALUES (1, 'x'), (2, 'y') AS a(id, s) NATURAL FULL JOIN VALUES (1, 'x', 'p'), (3, 'z', 'q') AS b(id, s, t)",
    ["id", "s", "t"],
    ['{"id":1,"s":"x","t":"p"}', '{"id":2,"s":"y"}', '{"id":3,"s":"z","t":"q"}'],
  ],
  ["SELECT * FROM VALUES (1) AS a(x) NATURAL JOIN VALUES (2) AS b(y)", ["x", "y"], ['{"x":1,"y":2}']],
  ["SELECT * FROM VALUES (1, 2) AS a(ID, v) NATURAL INNER JOIN VALUES (1, 3) AS b(id, w)", ["ID", "v", "w"], ['{"ID":1,"v":2,"w":3}']],
  ["SELECT a.v, b.w, id FROM VALUES (1, 2) AS a(id, v) NATURAL JOIN VALUES (1, 3) AS b(id, w)", ["v", "w", "id"], ['{"v":2,"w":3,"id":1}']],
];

describe("NATURAL JOIN", () => {
  it("joins on the common columns as USING does (PySpark 4.3's columns and rows)", async () => {
    for (const [sql, columns, rows] of PYSPARK) {
      const df = session.sql(sql);
      assert.deepEqual(df.columns, columns, sql);
      const got = (await df.selectExpr("to_json(struct(*))").toArray()).map((r) => r[0] as string).sort();
      assert.deepEqual(got, rows, sql);
    }
  });

  it("takes no ON or USING and no SEMI, ANTI or CROSS form", () => {
    assert.throws(() => session.sql("SELECT * FROM VALUES (1) AS a(x) NATURAL LEFT SEMI JOIN VALUES (1) AS b(x)"), /NATURAL takes/);
    assert.throws(() => session.sql("SELECT * FROM VALUES (1) AS a(x) NATURAL JOIN VALUES (1) AS b(x) ON a.x = b.x"));
  });
});
