import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "/work/main/src/index.js";
import { simpleString } from "/work/main/src/types/datatypes.js";
const spark = Session.builder().master("local[1]").config("spark.sql.session.timeZone", "UTC").getOrCreate();
const spk = JSON.parse(readFileSync("/tmp/sweep/spark.json", "utf8")) as { e: string; t?: string; v?: string | null; err?: string }[];
let diffs = 0;
for (const s of spk) {
  let a: { t?: string; v?: unknown; err?: string };
  try {
    const df = spark.sql(`SELECT ${s.e} AS v`);
    const t = simpleString(df.schema.fields[0]!.type);
    const rows = await df.selectExpr("CAST(v AS STRING) AS s").collect();
    a = { t, v: rows[0]!.s };
  } catch (e) {
    const m = String((e as Error).message).split("\n")[0]!;
    a = { err: m.startsWith("[") ? m.split("]")[0]!.slice(1) : m.slice(0, 60) };
  }
  const same = s.err ? a.err === s.err : a.t === s.t && a.v === s.v;
  if (!same) { diffs++; console.log(`${s.e}\n   spark: ${JSON.stringify(s.err ?? [s.t, s.v])}\n   arus:  ${JSON.stringify(a.err ?? [a.t, a.v])}`); }
}
console.log("diffs", diffs, "of", spk.length);
