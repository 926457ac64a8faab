/** `arus sql "<query>"`: batch SQL over files, printed like Spark's show(). */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { Session } from "../api/session.js";

const FORMATS: Record<string, string> = { ".json": "json", ".jsonl": "json", ".csv": "csv", ".parquet": "parquet", ".txt": "text" };

export async function runSql(query: string, opts: { view: string[]; numRows: string; truncate: boolean; tz: string }): Promise<void> {
  const session = Session.builder().appName("arus-sql").config("spark.sql.session.timeZone", opts.tz).getOrCreate();
  for (const v of opts.view) {
    const eq = v.indexOf("=");
    if (eq < 1) throw new Error(`--view expects name=path, got "${v}"`);
    const name = v.slice(0, eq);
    const p = v.slice(eq + 1);
    const format = viewFormat(p);
    const reader = session.read.format(format);
    if (format === "csv") reader.option("header", "true").option("inferSchema", "true");
    reader.load(p).createOrReplaceTempView(name);
  }
  await session.sql(query).show(Number(opts.numRows), opts.truncate);
  await session.stop();
}

/** The format of a view's path: from its extension, or for a directory from its files' extension (default parquet). */
function viewFormat(p: string): string {
  const own = FORMATS[path.extname(p).toLowerCase()];
  if (own) return own;
  if (statSync(p, { throwIfNoEntry: false })?.isDirectory()) {
    for (const f of readdirSync(p).sort()) {
      const ext = FORMATS[path.extname(f).toLowerCase()];
      if (ext && !f.startsWith(".") && !f.startsWith("_")) return ext;
    }
  }
  return "parquet";
}
