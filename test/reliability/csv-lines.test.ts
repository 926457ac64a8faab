// Issue 13 item 3: with multiLine false (Spark's default) CSV input is split into lines first,
// so an unbalanced quote damages only its own line; DROPMALFORMED keeps the good rows after it.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { utcSession } from "../engine/helpers.js";
import { tempDirs } from "../temp-dirs.js";

const session = utcSession();
const tmp = tempDirs("arus-csvlines-");

async function csv(text: string): Promise<string> {
  const f = join(await tmp(), "a.csv");
  await writeFile(f, text);
  return f;
}

describe("CSV: lines first (multiLine false)", () => {
  const text = 'a,b,c\n1,"open,x\n2,y,z\n3,u,v\n';

  it("DROPMALFORMED keeps every good line after an unbalanced quote", async () => {
    const f = await csv(text);
    const rows = await session.read
      .schema("a INT, b STRING, c STRING")
      .option("header", true)
      .option("mode", "DROPMALFORMED")
      .csv(f)
      .collect();
    // line 2 is `1,"open,x`: two tokens for three columns -> malformed and dropped
    assert.deepEqual(rows, [
      { a: 2, b: "y", c: "z" },
      { a: 3, b: "u", c: "v" },
    ]);
  });

  it("PERMISSIVE: the damaged line is its own record, the next lines are intact", async () => {
    const f = await csv(text);
    const rows = await session.read.schema("a INT, b STRING, c STRING, _corrupt_record STRING").option("header", true).csv(f).collect();
    assert.equal(rows.length, 3);
    assert.deepEqual(rows[0], { a: 1, b: "open,x", c: null, _corrupt_record: '1,"open,x' });
    assert.deepEqual(rows.slice(1), [
      { a: 2, b: "y", c: "z", _corrupt_record: null },
      { a: 3, b: "u", c: "v", _corrupt_record: null },
    ]);
  });

  it("multiLine true keeps quoted values spanning lines", async () => {
    const f = await csv('a,b\n1,"x\ny"\n2,z\n');
    const rows = await session.read.schema("a INT, b STRING").option("header", true).option("multiLine", true).csv(f).collect();
    assert.deepEqual(rows, [
      { a: 1, b: "x\ny" },
      { a: 2, b: "z" },
    ]);
  });
});
