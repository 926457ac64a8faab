// Issue 13 item 4: a column or field named `__proto__` or `constructor` is an ordinary own
// property of every row object arus builds (collect, foreachBatch rows, structs, JSON reads,
// the testing kit), and never the object's prototype.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { utcSession } from "../engine/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const session = utcSession();
const tmp = tempDirs("arus-rowobj-");
const SCHEMA = "`__proto__` STRING, s STRUCT<`__proto__`: INT, `constructor`: INT>, `constructor` INT, toString STRING";

function checkRow(r: Record<string, unknown>): void {
  assert.equal(Object.getPrototypeOf(r), Object.prototype);
  assert.ok(Object.hasOwn(r, "__proto__"), "__proto__ is an own property");
  assert.deepEqual(Object.keys(r), ["__proto__", "s", "constructor", "toString"]);
  assert.equal(Object.getOwnPropertyDescriptor(r, "__proto__")?.value, "p");
  const s = r.s as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(s), Object.prototype, "a struct-valued field does not become a prototype");
  assert.equal(Object.getOwnPropertyDescriptor(s, "__proto__")?.value, 1);
}

describe("row objects for any column name", () => {
  it("createDataFrame + collect keep __proto__ and constructor as own fields", async () => {
    const input = JSON.parse('{"__proto__":"p","s":{"__proto__":1,"constructor":2},"constructor":3,"toString":"t"}');
    const rows = await session.createDataFrame([input], SCHEMA).collect();
    assert.equal(rows.length, 1);
    checkRow(rows[0] as Record<string, unknown>);
    assert.equal((rows[0] as Record<string, unknown>).constructor, 3);
  });

  it("a row without a field named constructor gives null, not Object's source", async () => {
    const rows = await session.createDataFrame([{ a: 1 }], "a INT, `constructor` STRING").collect();
    assert.deepEqual(rows, [{ a: 1, constructor: null }]);
  });

  it("read.json and a struct column named __proto__", async () => {
    const dir = await tmp();
    const file = join(dir, "a.json");
    await writeFile(file, '{"__proto__":"p","s":{"__proto__":1,"constructor":2},"constructor":3,"toString":"t"}\n');
    const rows = await session.read.schema(SCHEMA).json(file).collect();
    checkRow(rows[0] as Record<string, unknown>);
  });

  it("foreachBatch rows", async () => {
    const ms = session.memoryStream(SCHEMA);
    const got: Record<string, unknown>[] = [];
    const q = await ms
      .toDF()
      .writeStream.foreachBatch(async (df) => {
        for (const r of await df.collect()) got.push(r as Record<string, unknown>);
      })
      .start();
    try {
      ms.addData([JSON.parse('{"__proto__":"p","s":{"__proto__":1,"constructor":2},"constructor":3,"toString":"t"}')]);
      await q.processAllAvailable();
    } finally {
      await q.stop();
    }
    assert.equal(got.length, 1);
    checkRow(got[0]!);
  });
});
