/**
 * JSON lines → column vectors for a given schema. `JsonRows` is where every record lands, from
 * either decoder: the byte scanner (json-scan.ts) for flat records, or the engine's native
 * `JSON.parse` for everything else (`readJsonText`, and the scanner's per-line fallback). Field
 * values are converted straight into column builders; a reused scratch row lets DROPMALFORMED
 * discard a record before it lands.
 */
import type { Batch } from "../../../columnar/batch.js";
import type { StructType } from "../../../types/datatypes.js";
import { RowBatches } from "../builders.js";
import type { DateTimeText } from "../datetime-text.js";
import { splitLines } from "../lines.js";
import { corruptColumnIndex, malformedRecordError } from "../malformed.js";
import type { ParseMode } from "../options.js";
import { FAIL } from "../text-values.js";
import { isJsonObject, type JsonFeatures, parseJsonText } from "./json-text.js";
import {
  fieldReader,
  type JsonConverter,
  jsonConverter,
  NEEDS_TEXT,
  needsNumberKinds,
  nestsTooDeep,
  PartialValue,
  parseJsonExact,
  type ValueText,
} from "./json-values.js";

/** A digit then `.`, `e` or `E`: the line may hold a number that is not an integer token. */
const MAYBE_FRACTION = /\d[.eE]/;
/** The integer token `-0`, which JSON.parse reads as -0 (Jackson: the int 0). */
const MAYBE_NEGATIVE_ZERO = /-0(?![\d.eE])/;

export interface JsonReadSettings {
  readonly mode: ParseMode;
  readonly corruptColumn: string;
  readonly dateTime: DateTimeText;
  readonly lineSep?: string;
  /** How a STRING column reads a non-string value (default: its source text, as Spark's file source). */
  readonly valueText?: ValueText;
  /** Jackson's parser features from the read's options (default: Spark's). */
  readonly features?: JsonFeatures;
  /** Each file is one JSON document (an object, or an array of them), not JSON lines. */
  readonly multiLine?: boolean;
}

/** The rows of one file being read: scratch row, parse-mode handling, builders and batches. */
export class JsonRows {
  readonly fieldCount: number;
  /** Index of the corrupt-record column, -1 if the schema has none. */
  readonly corruptIdx: number;
  readonly converters: readonly JsonConverter[];
  /** The record being assembled: converted values, null, or FAIL for a value that did not convert. */
  readonly scratch: unknown[];
  /** Where rows land; a bulk decoder (json-wasm.ts) appends to its column builders directly. */
  readonly out: RowBatches;
  private readonly readers: ((o: Record<string, unknown>) => unknown)[];
  /** Does a column refuse fractions (INT, TIMESTAMP, ...), so number kinds matter? */
  private readonly numberKinds: boolean;

  constructor(
    private readonly file: string,
    readonly schema: StructType,
    private readonly s: JsonReadSettings,
    /** STRING columns as UTF-8 bytes (the WASM decoder, `arus.columnar.utf8Strings`). */
    utf8Strings = false,
  ) {
    const fields = schema.fields;
    this.fieldCount = fields.length;
    this.corruptIdx = corruptColumnIndex(schema, s.corruptColumn);
    this.out = new RowBatches(schema, utf8Strings);
    this.readers = fields.map((f) => fieldReader(f.name));
    const how = { dateTime: s.dateTime, valueText: s.valueText, nonNumericNumbers: s.features?.allowNonNumericNumbers };
    this.converters = fields.map((f) => jsonConverter(f.type, how));
    this.numberKinds = fields.some((f, i) => i !== this.corruptIdx && needsNumberKinds(f.type));
    this.scratch = new Array<unknown>(this.fieldCount).fill(null);
  }

  /**
   * One physical line through `JSON.parse` (blank lines are skipped, as in Spark), or through
   * json-text.ts when `JSON.parse` refuses it (Jackson's single quotes and NaN), when a number's
   * kind matters, or when a STRING column needs a value's text. With `multiLine` the "line" is
   * a whole file: one document, read the same way.
   */
  parseLine(line: string, lineNo: number): void {
    if (line.trim() === "") return;
    const read = nestsTooDeep(line) ? undefined : this.document(line);
    if (read === undefined) {
      this.parsed(undefined, line, lineNo);
      return;
    }
    if (read.doc === null) return;
    if (Array.isArray(read.doc)) {
      this.parsedArray(read.doc, read.exact, line, lineNo);
      return;
    }
    try {
      this.parsed(read.doc, line, lineNo);
    } catch (e) {
      if (e !== NEEDS_TEXT || read.exact) throw e;
      // a STRING column needs a value's text: the record again, from json-text.ts's reading
      this.scratch.fill(null);
      this.parsed(parseJsonText(line, this.s.features), line, lineNo);
    }
  }

  /**
   * A top-level array: a row per element, as Spark's parser reads it. An element that is not an
   * object makes the whole record one malformed row; an element with a field that does not
   * convert makes every row of the record malformed (each keeping the fields that did convert,
   * and the record's text as its corrupt record) — Spark's partial results of an array.
   */
  private parsedArray(docs: readonly unknown[], exact: boolean, line: string, lineNo: number): void {
    if (!docs.every(isJsonObject)) {
      this.parsed(undefined, line, lineNo);
      return;
    }
    let rows: unknown[][];
    try {
      rows = docs.map((d) => this.converted(d as Record<string, unknown>));
    } catch (e) {
      if (e !== NEEDS_TEXT || exact) throw e;
      // a STRING column needs a value's text: every element again, from json-text.ts's reading
      this.scratch.fill(null);
      rows = (parseJsonText(line, this.s.features) as Record<string, unknown>[]).map((d) => this.converted(d));
    }
    const bad = rows.some((r) => r.some((v) => v === FAIL || v instanceof PartialValue));
    for (const r of rows) {
      for (let i = 0; i < r.length; i++) this.scratch[i] = r[i];
      this.commit(bad, lineNo, line);
    }
  }

  /** An object's converted fields (a copy: the scratch row is left cleared). */
  private converted(o: Record<string, unknown>): unknown[] {
    this.fill(o);
    const row = this.scratch.slice();
    this.scratch.fill(null);
    return row;
  }

  /** The scratch row from an object's fields. */
  private fill(o: Record<string, unknown>): void {
    const scratch = this.scratch;
    for (let i = 0; i < this.fieldCount; i++) {
      if (i === this.corruptIdx) continue;
      const raw = this.readers[i]!(o);
      scratch[i] = raw === null || raw === undefined ? null : this.converters[i]!(raw);
    }
  }

  /**
   * The line as a document (undefined when malformed): `JSON.parse` when it can tell all the
   * schema needs, else json-text.ts (`exact`: numbers and objects keep their text).
   */
  private document(line: string): { doc: unknown; exact: boolean } | undefined {
    const kindsMatter = (this.numberKinds && MAYBE_FRACTION.test(line)) || MAYBE_NEGATIVE_ZERO.test(line);
    if (!kindsMatter) {
      try {
        return { doc: parseJsonExact(line), exact: false };
      } catch {
        // Jackson's extensions (single quotes, NaN), or malformed: json-text.ts decides
      }
    }
    try {
      return { doc: parseJsonText(line, this.s.features), exact: true };
    } catch {
      return undefined;
    }
  }

  /** A parsed document: an object fills the scratch row, anything else is malformed. */
  private parsed(doc: unknown, line: string, lineNo: number): void {
    if (isJsonObject(doc)) {
      this.fill(doc);
      this.commit(false, lineNo, line);
    } else {
      this.scratch.fill(null);
      this.commit(true, lineNo, line);
    }
  }

  /**
   * Appends the scratch row (then clears it). `malformed` marks a record that did not parse;
   * a FAIL value in the scratch row marks one whose fields did not convert (Spark keeps the
   * other fields in PERMISSIVE mode), a PartialValue one whose nested STRUCT kept some fields.
   * The record's text — `line`, else `lineText()` — is only needed for a bad record
   * (corrupt-record column, FAILFAST error).
   */
  commit(malformed: boolean, lineNo: number, line?: string): void {
    const scratch = this.scratch;
    let bad = malformed;
    for (let i = 0; i < this.fieldCount; i++) {
      if (scratch[i] === FAIL) {
        bad = true;
        scratch[i] = null;
      } else if (scratch[i] instanceof PartialValue) {
        bad = true;
        scratch[i] = (scratch[i] as PartialValue).value;
      }
    }
    if (bad && this.s.mode === "FAILFAST") throw malformedRecordError(this.file, lineNo, line ?? this.lineText());
    if (!(bad && this.s.mode === "DROPMALFORMED")) {
      if (this.corruptIdx >= 0) scratch[this.corruptIdx] = bad ? (line ?? this.lineText()) : null;
      this.out.append(scratch);
    }
    scratch.fill(null);
  }

  /** The current record's text when `commit` is not given it (set by the byte scanner). */
  lineText: () => string = () => "";

  finish(): Batch[] {
    return this.out.finish();
  }
}

export function readJsonText(file: string, text: string, schema: StructType, s: JsonReadSettings): Batch[] {
  const rows = new JsonRows(file, schema, s);
  const lines = s.multiLine ? [text] : splitLines(text, s.lineSep);
  for (let n = 0; n < lines.length; n++) rows.parseLine(lines[n]!, n + 1);
  return rows.finish();
}
