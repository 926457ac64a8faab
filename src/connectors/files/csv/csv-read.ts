/**
 * CSV text → column vectors: tokens are converted in place into column builders. Tokens map to
 * the schema's fields by position (the corrupt-record column excluded), as Spark does with
 * `enforceSchema`. A token that doesn't parse as its column's type, or a token count different
 * from the column count, makes the record malformed; PERMISSIVE keeps the parsed tokens.
 * `CsvRows` is shared with the byte scanner (csv-scan.ts), which fills the same scratch row.
 */
import type { Batch } from "../../../columnar/batch.js";
import type { StructType } from "../../../types/datatypes.js";
import { RowBatches } from "../builders.js";
import type { DateTimeText } from "../datetime-text.js";
import { corruptColumnIndex, malformedRecordError } from "../malformed.js";
import { type Converted, FAIL, textConverter } from "../text-values.js";
import { type CsvReadOptions, tokenValue } from "./csv-options.js";
import { CsvTokenizer } from "./csv-tokenizer.js";

/** The rows of one CSV file being read: scratch row, parse-mode handling, builders and batches. */
export class CsvRows {
  readonly corruptIdx: number;
  /** Positions of the data columns: every field except the corrupt-record one. */
  readonly dataIdx: readonly number[];
  readonly convs: readonly ((s: string) => Converted)[];
  /** The record being assembled (converted values or null). */
  readonly scratch: unknown[];
  /**
   * Column pruning outside multiLine: the token count does not matter (Spark's parser then reads
   * the kept columns only; in multiLine mode a record of too few or too many tokens stays malformed).
   */
  readonly anyTokenCount: boolean;
  private readonly out: RowBatches;
  /** The current record's raw text; only asked for a malformed record. */
  recordText: () => string = () => "";

  constructor(
    private readonly file: string,
    schema: StructType,
    private readonly o: CsvReadOptions,
    dt: DateTimeText,
    /** STRING columns as UTF-8 bytes (the byte scanner, `arus.columnar.utf8Strings`). */
    utf8Strings = false,
    /** With column pruning, the columns converted (the others stay NULL); null: all. */
    readonly convert: ReadonlySet<number> | null = null,
  ) {
    const fields = schema.fields;
    this.corruptIdx = corruptColumnIndex(schema, o.corruptColumn);
    const dataIdx: number[] = [];
    for (let i = 0; i < fields.length; i++) if (i !== this.corruptIdx) dataIdx.push(i);
    this.dataIdx = dataIdx;
    this.out = new RowBatches(schema, utf8Strings);
    this.convs = fields.map((f) => textConverter(f.type, dt, o));
    this.scratch = new Array<unknown>(fields.length).fill(null);
    this.anyTokenCount = convert !== null && o.syntax.multiLine !== true;
  }

  /** Appends the scratch row unless the parse mode drops (or fails on) a malformed record. */
  commit(bad: boolean, line: number): void {
    if (bad) {
      if (this.o.mode === "FAILFAST") throw malformedRecordError(this.file, line, this.recordText());
      if (this.o.mode === "DROPMALFORMED") return;
    }
    const scratch = this.scratch;
    if (this.corruptIdx >= 0) scratch[this.corruptIdx] = bad ? this.recordText() : null;
    this.out.append(scratch);
  }

  finish(): Batch[] {
    return this.out.finish();
  }
}

/** `utf8Strings`: STRING columns as UTF-8 vectors (a file the byte scanner hands over). */
export function readCsvText(
  file: string,
  text: string,
  schema: StructType,
  o: CsvReadOptions,
  dt: DateTimeText,
  utf8Strings = false,
  convert: ReadonlySet<number> | null = null,
): Batch[] {
  const rows = new CsvRows(file, schema, o, dt, utf8Strings, convert);
  const { dataIdx, convs, scratch } = rows;
  const nd = dataIdx.length;
  const tk = new CsvTokenizer(text, o.syntax);
  rows.recordText = () => tk.recordText();
  let first = true;
  while (tk.next()) {
    if (first && o.header) {
      first = false;
      continue;
    }
    first = false;
    let bad = !rows.anyTokenCount && tk.count !== nd;
    const m = Math.min(tk.count, nd);
    for (let k = 0; k < m; k++) {
      const i = dataIdx[k]!;
      if (convert && !convert.has(i)) {
        scratch[i] = null;
        continue;
      }
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
    rows.commit(bad, tk.line);
  }
  return rows.finish();
}
