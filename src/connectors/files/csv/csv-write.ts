/**
 * Column vectors → CSV as Spark's univocity writer prints it: fields quoted only when they hold
 * the separator, the quote or a line break (or always with `quoteAll`), quotes escaped with the
 * escape char, values trimmed by default, null as `nullValue` (""), empty string as `""` (with
 * `quoteAll` both quoted),
 * timestamps `yyyy-MM-dd'T'HH:mm:ss.SSSXXX`, doubles in Java notation.
 */
import type { Batch } from "../../../columnar/batch.js";
import type { Vector } from "../../../columnar/vector.js";
import { formatDouble } from "../../../common/number-format.js";
import { hexBytes, javaFloatToString } from "../../../common/show.js";
import type { DataType, StructType } from "../../../types/datatypes.js";
import { javaBigDecimalString, unscaledOf } from "../../../types/decimal.js";
import type { DateTimeText } from "../datetime-text.js";
import { integerText } from "../json/json-write.js";
import type { CsvWriteOptions } from "./csv-options.js";

function textOf(type: DataType, dt: DateTimeText): (v: unknown) => string {
  switch (type.kind) {
    case "tinyint":
    case "smallint":
    case "int":
    case "bigint":
      return (v) => integerText(v as number | bigint);
    case "double":
      return (v) => formatDouble(v as number);
    case "float":
      return (v) => javaFloatToString(v as number);
    case "decimal":
      return (v) => javaBigDecimalString(unscaledOf(v), type.scale);
    case "boolean":
      return (v) => (v ? "true" : "false");
    case "timestamp":
      return (v) => dt.formatTimestamp(v as number | bigint);
    case "date":
      return (v) => dt.formatDate(v as number);
    case "binary":
      return (v) => hexBytes(v as Uint8Array);
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
    // quoteAll quotes the empty value too, unless it is already the quoted empty string
    if (s === "") return raw === "" ? (o.quoteAll && quoting && o.emptyValue !== q + q ? q + o.emptyValue + q : o.emptyValue) : s;
    const hasQuote = quoting && s.includes(q);
    const needs = o.quoteAll || s.includes(o.sep) || s.includes("\n") || s.includes("\r") || (hasQuote && o.escapeQuotes);
    if (!needs || !quoting) return s;
    let body = s;
    if (e !== q && e !== "\u0000" && body.includes(e)) body = body.split(e).join(e + e);
    if (hasQuote) body = body.split(q).join((e === "\u0000" ? q : e) + q);
    return q + body + q;
  };
}

/** One record's CSV text (no line separator) for row r of a batch of `schema`'s columns. */
export function csvRecordEncoder(schema: StructType, o: CsvWriteOptions, dt: DateTimeText): (cols: readonly Vector[], r: number) => string {
  const quote = csvQuoter(o);
  // quoteAll quotes a NULL's text too (`"NA"`, `""`), as univocity does
  const nullText = o.quoteAll && o.quote !== "\u0000" ? o.quote + o.nullValue + o.quote : o.nullValue;
  const writers = schema.fields.map((f) => textOf(f.type, dt));
  const cells = new Array<string>(writers.length);
  return (cols, r) => {
    for (let c = 0; c < writers.length; c++) {
      const v = cols[c]!;
      cells[c] = v.validity !== null && v.validity[r] === 0 ? nullText : quote(writers[c]!(v.values[r]));
    }
    return cells.join(o.sep);
  };
}

export function encodeCsv(schema: StructType, batch: Batch, o: CsvWriteOptions, dt: DateTimeText, withHeader: boolean): string {
  const record = csvRecordEncoder(schema, o, dt);
  const lines: string[] = [];
  if (withHeader) lines.push(schema.fields.map((f) => csvQuoter(o)(f.name)).join(o.sep));
  for (let r = 0; r < batch.numRows; r++) lines.push(record(batch.columns, r));
  return lines.length === 0 ? "" : lines.join(o.lineSep) + o.lineSep;
}
