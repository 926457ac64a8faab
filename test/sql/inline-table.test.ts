// Inline tables (`VALUES ...`) and column aliases on relations (`t(a, b)`), each figure checked
// against PySpark 4.3: names, types, nullability and Spark's INVALID_INLINE_TABLE errors.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { simpleString } from "../../src/types/datatypes.js";
import { utcSession } from "../engine/helpers.js";

const s = utcSession();

async function run(q: string): Promise<{ schema: string; rows: unknown[] }> {
  const df = s.sql(q);
  const schema = df.schema.fields.map((f) => `${f.name}:${simpleString(f.type)}${f.nullable ? "" : " not null"}`).join(", ");
  return { schema, rows: await df.collect() };
}

describe("inline tables", () => {
  it("VALUES rows, with and without column names", async () => {
    assert.deepEqual(await run("SELECT * FROM VALUES (1, 'a'), (2, 'b') AS t(id, name)"), {
      schema: "id:int not null, name:string not null",
      rows: [
        { id: 1, name: "a" },
        { id: 2, name: "b" },
      ],
    });
    assert.deepEqual((await run("SELECT * FROM VALUES (1, 'a'), (2, 'b')")).schema, "col1:int not null, col2:string not null");
    assert.deepEqual(await run("SELECT * FROM VALUES 1, 2"), { schema: "col1:int not null", rows: [{ col1: 1 }, { col1: 2 }] });
    assert.deepEqual(await run("VALUES (1, 'x'), (2, 'y')"), {
      schema: "col1:int not null, col2:string not null",
      rows: [
        { col1: 1, col2: "x" },
        { col1: 2, col2: "y" },
      ],
    });
    assert.deepEqual((await run("SELECT col1 FROM VALUES (1, 2) t")).rows, [{ col1: 1 }]);
  });

  it("a column takes its values' common type; constant expressions are computed", async () => {
    assert.deepEqual((await run("SELECT * FROM VALUES (1), (2.5) t(x)")).schema, "x:decimal(11,1) not null");
    assert.deepEqual(await run("SELECT * FROM VALUES (1), (null) t(x)"), { schema: "x:int", rows: [{ x: 1 }, { x: null }] });
    assert.deepEqual(await run("SELECT * FROM VALUES (1L), (2) t(x)"), { schema: "x:bigint not null", rows: [{ x: 1 }, { x: 2 }] });
    assert.deepEqual((await run("SELECT * FROM VALUES (1 + 1, upper('a')) t(x, y)")).rows, [{ x: 2, y: "A" }]);
    assert.deepEqual((await run("SELECT * FROM VALUES (array(1, 2)), (array(3)) t(arr)")).rows, [{ arr: [1, 2] }, { arr: [3] }]);
    const ts = (await run("SELECT * FROM VALUES (timestamp'2020-01-01 10:00:00') t(ts)")).rows[0] as { ts: Date };
    assert.equal(ts.ts.toISOString(), "2020-01-01T10:00:00.000Z");
  });

  it("Spark's errors for mismatched rows and types", async () => {
    await assert.rejects(
      run("SELECT * FROM VALUES (1), ('2') AS t(v)"),
      /\[INVALID_INLINE_TABLE\.INCOMPATIBLE_TYPES_IN_INLINE_TABLE\] Invalid inline table\. Found incompatible types in the column `v` for inline table\./,
    );
    await assert.rejects(run("SELECT * FROM VALUES (1, 2), (3) t(a, b)"), /Inline table expected 2 columns but found 1 columns in row 1\./);
    await assert.rejects(
      run("SELECT * FROM VALUES (1, 2) t(a)"),
      /INVALID_INLINE_TABLE\.NUM_COLUMNS_MISMATCH.*expected 1 columns but found 2 columns in row 0/,
    );
  });

  it("in joins, WHERE and parentheses", async () => {
    assert.deepEqual((await run("SELECT t.a FROM VALUES (1), (2) t(a) WHERE a > 1")).rows, [{ a: 2 }]);
    assert.deepEqual((await run("SELECT * FROM (VALUES (1, 'a')) AS t(id, name)")).rows, [{ id: 1, name: "a" }]);
    assert.deepEqual(await run("SELECT * FROM VALUES (1, 'a') t(x, y) JOIN VALUES (1, 'b') u(x, z) USING (x)"), {
      schema: "x:int not null, y:string not null, z:string not null",
      rows: [{ x: 1, y: "a", z: "b" }],
    });
  });
});

describe("column aliases on relations", () => {
  it("rename a subquery's or range's columns by position", async () => {
    assert.deepEqual(await run("SELECT * FROM (SELECT 1, 2) t(a, b)"), {
      schema: "a:int not null, b:int not null",
      rows: [{ a: 1, b: 2 }],
    });
    assert.deepEqual((await run("SELECT r.a FROM range(2) AS r(a)")).rows, [{ a: 0 }, { a: 1 }]);
  });
  it("a count that does not match is Spark's error", async () => {
    await assert.rejects(
      run("SELECT * FROM (SELECT 1, 2) t(a)"),
      /\[ASSIGNMENT_ARITY_MISMATCH\] The number of columns or variables assigned or aliased: 2 does not match the number of source expressions: 1\./,
    );
    await assert.rejects(run("SELECT * FROM range(2) r(a, b)"), /\[NUM_TABLE_VALUE_ALIASES_MISMATCH\]/);
  });
});
