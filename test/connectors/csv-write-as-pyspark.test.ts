/**
 * CSV written as PySpark 4.3.0 writes it: with `quoteAll` a NULL's text and a set emptyValue are
 * quoted too (arus wrote them bare); a BINARY column is its bytes in hex, `[01 02]`, and reads
 * back as that text's UTF-8 bytes (arus refused BINARY in CSV, as Spark 3 did). Expected texts
 * and values are PySpark's for the same rows.
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

async function written(options: Record<string, string | boolean>, data = df, dir = join(dirs(), "out")): Promise<string> {
  let w = data.coalesce(1).write;
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

describe("CSV BINARY as PySpark", () => {
  it("written as [01 02], read back as the text's bytes; to_csv alike", async () => {
    const dir = join(dirs(), "bin");
    const text = await written({}, spark.sql("SELECT X'0102' AS d, X'' AS e, CAST(NULL AS BINARY) AS f"), dir);
    assert.equal(text, "[01 02],[],\n");
    const [[bytes]] = (await spark.read.schema("d BINARY").csv(dir).toArray()) as [[Uint8Array]];
    assert.equal(Buffer.from(bytes).toString("utf8"), "[01 02]");
    assert.deepEqual(await spark.sql("SELECT to_csv(named_struct('d', X'0A0B'))").toArray(), [["[0A 0B]"]]);
  });
});
