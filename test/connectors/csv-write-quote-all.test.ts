/**
 * CSV written with `quoteAll`: a NULL's text and a set emptyValue are quoted too, as PySpark
 * 4.3.0 writes them (arus wrote them bare). Expected file texts are PySpark's for the same rows.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const dirs = tempDirsSync("arus-csv-quote-all-");
const spark = Session.builder().getOrCreate();
const df = spark.sql("SELECT * FROM VALUES (1, NULL, ''), (2, 'a', ' b ') AS t(i, s, e)");

async function written(options: Record<string, string | boolean>): Promise<string> {
  const dir = join(dirs(), "out");
  let w = df.coalesce(1).write;
  for (const [k, v] of Object.entries(options)) w = w.option(k, v);
  await w.csv(dir);
  return readdirSync(dir)
    .filter((f) => f.startsWith("part-"))
    .sort()
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("");
}

describe("CSV quoteAll as PySpark", () => {
  it('a NULL is the quoted empty string; the empty string stays ""', async () => {
    assert.equal(await written({ quoteAll: true }), '"1","",""\n"2","a","b"\n');
  });
  it("a nullValue is quoted", async () => {
    assert.equal(await written({ quoteAll: true, nullValue: "NA" }), '"1","NA",""\n"2","a","b"\n');
  });
  it("an emptyValue is quoted", async () => {
    assert.equal(await written({ quoteAll: true, emptyValue: "E" }), '"1","","E"\n"2","a","b"\n');
  });
});
