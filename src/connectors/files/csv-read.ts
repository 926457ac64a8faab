/**
 * CSV text → column vectors: tokens are converted in place into column builders. Tokens map to
 * the schema's fields by position (the corrupt-record column excluded), as Spark does with
 * `enforceSchema`. A token that doesn't parse as its column's type, or a token count different
 * from the column count, makes the record malformed; PERMISSIVE keeps the parsed tokens.
 */
import { type Batch, makeBatch } from "../../columnar/batch.js";
import type { StructType } from "../../types/datatypes.js";
import { columnBuilder } from "./builders.js";
import { type CsvReadOptions, tokenValue } from "./csv-options.js";
import { CsvTokenizer } from "./csv-tokenizer.js";
import type { DateTimeText } from "./datetime-text.js";
import { BATCH_ROWS } from "./json-read.js";
import { corruptColumnIndex, malformedRecordError } from "./malformed.js";
import { FAIL, textConverter } from "./text-values.js";

export function readCsvText(file: string, text: string, schema: StructType, o: CsvReadOptions, dt: DateTimeText): Batch[] {
  const fields = schema.fields;
  const nf = fields.length;
  const corruptIdx = corruptColumnIndex(schema, o.corruptColumn);
  // Positions of the data columns: every field except the corrupt-record one.
  const dataIdx: number[] = [];
  for (let i = 0; i < nf; i++) if (i !== corruptIdx) dataIdx.push(i);
  const nd = dataIdx.length;
  const builders = fields.map((f) => columnBuilder(f.type));
  const convs = fields.map((f) => textConverter(f.type, dt, o));
  const scratch = new Array<unknown>(nf).fill(null);
  const batches: Batch[] = [];
  let rows = 0;
  const flush = (): void => {
    if (rows === 0) return;
    batches.push(
      makeBatch(
        builders.map((b) => b.finish()),
        rows,
      ),
    );
    rows = 0;
  };

  const tk = new CsvTokenizer(text, o.syntax);
  let first = true;
  while (tk.next()) {
    if (first && o.header) {
      first = false;
      continue;
    }
    first = false;
    let bad = tk.count !== nd;
    const m = Math.min(tk.count, nd);
    for (let k = 0; k < m; k++) {
      const i = dataIdx[k]!;
      const v = tokenValue(tk.fields[k]!, tk.quoted[k]!, o);
      if (v === null) scratch[i] = null;
      else {
        const c = convs[i]!(v);
        if (c === FAIL) {
          bad = true;
          scratch[i] = null;
        } else scratch[i] = c;
      }
    }
    for (let k = m; k < nd; k++) scratch[dataIdx[k]!] = null;
    if (bad) {
      if (o.mode === "FAILFAST") throw malformedRecordError(file, tk.line, tk.recordText());
      if (o.mode === "DROPMALFORMED") continue;
    }
    if (corruptIdx >= 0) scratch[corruptIdx] = bad ? tk.recordText() : null;
    for (let i = 0; i < nf; i++) builders[i]!.append(scratch[i]);
    if (++rows === BATCH_ROWS) flush();
  }
  flush();
  return batches;
}
