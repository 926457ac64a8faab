/**
 * Column vectors → CSV as Spark's univocity writer prints it: fields quoted only when they hold
 * the separator, the quote or a line break (or always with `quoteAll`), quotes escaped with the
 * escape char, values trimmed by default, null as `nullValue` (""), empty string as `""`,
 * timestamps `yyyy-MM-dd'T'HH:mm:ss.SSSXXX`, doubles in Java notation.
 */
import type { Batch } from "../../../columnar/batch.js";
import type { Vector } from "../../../columnar/vector.js";
import { formatDouble } from "../../../common/number-format.js";
import type { DataType, StructType } from "../../../types/datatypes.js";
import type { DateTimeText } from "../datetime-text.js";
import { integerText } from "../json/json-write.js";
import type { CsvWriteOptions } from "./csv-options.js";

function textOf(type: DataType, dt: DateTimeText): (v: unknown) => string {
  switch (type.kind) {
    case "int":
    case "bigint":
      return (v) => integerText(v as number);
    case "double":
      return (v) => formatDouble(v as number);
    case "boolean":
      return (v) => (v ? "true" : "false");
    case "timestamp":
      return (v) => dt.formatTimestamp(v as number);
    case "date":
      return (v) => dt.formatDate(v as number);
    default:
      return (v) => String(v);
  }
}

/** univocity's whitespace trimming: any char <= ' '. */
function trimWs(s: string, lead: boolean, trail: boolean): string {
  let a = 0;
  let b = s.length;
  if (lead) while (a < b && s.charCodeAt(a) <= 0x20) a++;
  if (trail) while (b > a && s.charCodeAt(b - 1) <= 0x20) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

export function csvQuoter(o: CsvWriteOptions): (s: string) => string {
  const q = o.quote;
  const e = o.escape;
  const quoting = q !== "\u0000";
  return (raw) => {
    const s = trimWs(raw, o.trimLeading, o.trimTrailing);
    if (s === "") return raw === "" ? o.emptyValue : s;
    const hasQuote = quoting && s.includes(q);
    const needs = o.quoteAll || s.includes(o.sep) || s.includes("\n") || s.includes("\r") || (hasQuote && o.escapeQuotes);
    if (!needs || !quoting) return s;
    let body = s;
    if (e !== q && e !== "\u0000" && body.includes(e)) body = body.split(e).join(e + e);
    if (hasQuote) body = body.split(q).join((e === "\u0000" ? q : e) + q);
    return q + body + q;
  };
}

export function encodeCsv(schema: StructType, batch: Batch, o: CsvWriteOptions, dt: DateTimeText, withHeader: boolean): string {
  const quote = csvQuoter(o);
  const writers = schema.fields.map((f) => textOf(f.type, dt));
  const nf = schema.fields.length;
  const lines: string[] = [];
  if (withHeader) lines.push(schema.fields.map((f) => quote(f.name)).join(o.sep));
  const cols: readonly Vector[] = batch.columns;
  const cells = new Array<string>(nf);
  for (let r = 0; r < batch.numRows; r++) {
    for (let c = 0; c < nf; c++) {
      const v = cols[c]!;
      cells[c] = v.validity !== null && v.validity[r] === 0 ? o.nullValue : quote(writers[c]!(v.values[r]));
    }
    lines.push(cells.join(o.sep));
  }
  return lines.length === 0 ? "" : lines.join(o.lineSep) + o.lineSep;
}
