/**
 * docs/api.md stays true: every method its class tables list exists on a real instance of that
 * class, and every name `arus`, `arus/testing`, `functions` and `types` export appears on the page.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import * as arus from "../../src/index.js";
import { Session } from "../../src/index.js";
import * as testing from "../../src/testing/index.js";

const root = path.resolve(import.meta.dirname, "../..");
const page = readFileSync(path.join(root, "docs/api.md"), "utf8");

/** `## Heading` → the first-column names of its table rows. */
function listedMethods(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const section of page.split(/^## /m).slice(1)) {
    const heading = section.slice(0, section.indexOf("\n")).trim();
    const names: string[] = [];
    for (const line of section.split("\n")) {
      if (!line.startsWith("| `")) continue;
      const first = line.split(/(?<!\\)\|/)[1]!;
      for (const m of first.matchAll(/`([A-Za-z_]\w*)/g)) names.push(m[1]!);
    }
    if (names.length) out.set(heading, names);
  }
  return out;
}

const session = Session.builder().appName("api-doc").config("spark.sql.session.timeZone", "UTC").getOrCreate();
const ms = session.memoryStream("k STRING, ts TIMESTAMP");
const query = await ms.toDF().writeStream.format("noop").start();
after(() => query.stop());
const df = session.range(1);

/** A real instance of each documented class. */
const INSTANCES: Record<string, object> = {
  SessionBuilder: Session.builder(),
  Session: session,
  SparkContext: session.sparkContext,
  DataFrame: df,
  Column: arus.functions.col("id"),
  GroupedData: df.groupBy("id"),
  Window: arus.Window,
  WindowSpec: arus.Window.partitionBy("id"),
  DataFrameReader: session.read,
  DataFrameWriter: df.write,
  DataStreamReader: session.readStream,
  DataStreamWriter: ms.toDF().writeStream,
  StreamingQuery: query,
  StreamingQueryManager: session.streams,
  MemoryStream: ms,
};

describe("docs/api.md", () => {
  const listed = listedMethods();
  for (const [cls, instance] of Object.entries(INSTANCES)) {
    it(`every ${cls} member it lists exists`, () => {
      const names = listed.get(cls);
      assert.ok(names?.length, `docs/api.md has no "## ${cls}" table`);
      const missing = names!.filter((n) => !(n in instance));
      assert.deepEqual(missing, [], `${cls} has no ${missing.join(", ")}`);
    });
  }
  it("names every export of arus, arus/testing, functions and types", () => {
    const exported = [
      ...Object.keys(arus),
      ...Object.keys(testing),
      ...Object.keys(arus.functions),
      ...Object.keys(arus.types),
      "Row",
      "OptionValue",
      "ShowOptions",
      "TriggerSpec",
      "StreamingQueryListener",
      "StreamingQueryProgress",
      "QueryAlertEvent",
    ];
    const absent = exported.filter((n) => !new RegExp(`\`${n}[\`(]`).test(page));
    assert.deepEqual(absent, [], `not in docs/api.md: ${absent.join(", ")}`);
  });
});
