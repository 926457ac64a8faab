/**
 * JSON lines straight from bytes into columns. Most JSON-lines input is one flat object per line;
 * for those the scanner walks the bytes once, validates them as strictly as `JSON.parse` would,
 * materializes only the fields the schema asks for (no object per record, no string for a field
 * nobody reads) and parses ISO-8601 UTC timestamps in place. Anything it does not fully
 * understand — a nested value in a wanted field, an escape in a wanted string, a syntax error,
 * a top-level array — sends that one line to `JSON.parse` (JsonRows.parseLine), which stays the
 * reference: the two paths give the same rows (test/connectors/json-scan.test.ts checks it).
 */
import type { Batch } from "../../../columnar/batch.js";
import type { StructType } from "../../../types/datatypes.js";
import { asBytes, type Bytes, isoUtcMicros } from "../byte-values.js";
import { readLinesOfRange } from "../line-range.js";
import { decodeText } from "../lines.js";
import { jsonDecoder } from "./json-decoder.js";
import { type JsonReadSettings, JsonRows, readJsonText } from "./json-read.js";
import { NumberText } from "./json-text.js";
import { needsNumberKinds } from "./json-values.js";
import { LONE_CR, readJsonWasm, readJsonWasmRange } from "./json-wasm.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const NEWLINE = 0x0a;
const CR = 0x0d;

/** Scan outcome of one line. */
const FALLBACK = 0;
const ROW = 1;
const BLANK = 2;

/** JSON whitespace within one line (a `\r` here can only precede the `\n`, see below). */
const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === CR;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** Hadoop's reader also ends lines at a lone `\r`; such files take the text path. */
export function hasLoneCarriageReturn(bytes: Uint8Array): boolean {
  const b = asBytes(bytes); // Buffer's indexOf is a native memchr, a Uint8Array's a slow builtin
  for (let i = b.indexOf(CR); i >= 0; i = b.indexOf(CR, i + 1)) if (b[i + 1] !== NEWLINE) return true;
  return false;
}

/**
 * `input` is a whole file, or (`atFileStart` false) a run of whole lines from inside one, as a
 * parallel scan hands out; line numbers in errors then count from the run's start. With
 * `arus.json.decoder` = wasm (json-decoder.ts) the WASM decoder reads what it can.
 */
export function readJsonBytes(file: string, input: Uint8Array, schema: StructType, s: JsonReadSettings, atFileStart = true): Batch[] {
  if (s.lineSep !== undefined) return readText(file, input, schema, s, atFileStart);
  if (jsonDecoder() === "wasm") {
    // it finds lone `\r` line ends itself
    const batches = readJsonWasm(file, input, schema, s, atFileStart);
    if (batches === LONE_CR) return readText(file, input, schema, s, atFileStart);
    if (batches !== null) return batches;
  }
  if (hasLoneCarriageReturn(input)) return readText(file, input, schema, s, atFileStart);
  return scanLines(file, input, schema, s, atFileStart);
}

function readText(file: string, input: Uint8Array, schema: StructType, s: JsonReadSettings, atFileStart: boolean): Batch[] {
  const text = atFileStart ? decodeText(input) : asBytes(input).toString("utf8");
  return readJsonText(file, text, schema, s);
}

/**
 * A decode thread's share of a file: the lines that start in `[start, end)` (line-range.ts),
 * decoded; the WASM decoder reads them into its own memory. Lines ended by a lone `\r` cannot
 * be cut on `\n`: that fails the range, and the calling thread reads the whole file instead
 * (json-parallel.ts).
 */
export function readJsonRange(file: string, start: number, end: number, size: number, schema: StructType, s: JsonReadSettings): Batch[] {
  const loneCr = (): Error => new Error(`${file}: lone \\r line ends, read on one thread`);
  const wasm = jsonDecoder() === "wasm" && s.lineSep === undefined;
  if (wasm) {
    const batches = readJsonWasmRange(file, start, end, size, schema, s);
    if (batches === LONE_CR) throw loneCr();
    if (batches !== null) return batches;
  }
  const { bytes, atFileStart } = readLinesOfRange(file, start, end, size);
  if (hasLoneCarriageReturn(bytes)) throw loneCr();
  // the byte scanner where the WASM decoder declined
  return wasm ? scanLines(file, bytes, schema, s, atFileStart) : readJsonBytes(file, bytes, schema, s, atFileStart);
}

/** The byte scanner alone, whatever `arus.json.decoder` says (tests and benchmarks compare). */
export function scanJsonBytes(file: string, input: Uint8Array, schema: StructType, s: JsonReadSettings, atFileStart = true): Batch[] {
  if (s.lineSep !== undefined || hasLoneCarriageReturn(input)) {
    const text = atFileStart ? decodeText(input) : asBytes(input).toString("utf8");
    return readJsonText(file, text, schema, s);
  }
  return scanLines(file, input, schema, s, atFileStart);
}

function scanLines(file: string, input: Uint8Array, schema: StructType, s: JsonReadSettings, atFileStart: boolean): Batch[] {
  const buf = asBytes(input);
  const rows = new JsonRows(file, schema, s);
  const scanner = new LineScanner(buf, rows, !s.dateTime.customTimestampFormat);
  let pos = atFileStart && buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0; // UTF-8 BOM
  let lineNo = 0;
  let from = 0;
  let stop = 0;
  rows.lineText = () => buf.toString("utf8", from, stop);
  while (pos < buf.length) {
    lineNo++;
    from = pos;
    // The scanner finds the end of a line it understands; only a fallback line needs a search.
    const outcome = scanner.scan(from);
    let end = outcome === FALLBACK ? buf.indexOf(NEWLINE, from) : scanner.lineEnd;
    if (end < 0) end = buf.length;
    stop = end > from && buf[end - 1] === CR ? end - 1 : end;
    if (outcome === ROW) rows.commit(false, lineNo);
    else if (outcome === FALLBACK) {
      rows.scratch.fill(null);
      rows.parseLine(buf.toString("utf8", from, stop), lineNo);
    }
    pos = end + 1;
  }
  return rows.finish();
}

/** How a wanted field's value is turned into its column value. */
const AS_GENERIC = 0; // through the field's JsonConverter
const AS_STRING = 1; // STRING column: the decoded text as is
const AS_TIMESTAMP = 2; // TIMESTAMP column: ISO-8601 UTC parsed from the bytes when possible

class LineScanner {
  private pos = 0;
  private end = 0;
  /** UTF-8 bytes of each wanted field name and its column index. */
  private readonly names: Buffer[] = [];
  private readonly columns: number[] = [];
  private readonly modes: number[] = [];
  /** Wanted field expected next (records usually repeat one key order). */
  private hint = 0;
  /** Set by `string()`: did the last string hold only ASCII bytes? */
  private ascii = true;
  /** Set by `number()`: was the last number an integer token (no fraction, no exponent)? */
  private integral = true;
  /** Per wanted field: does its column refuse a fraction (INT, TIMESTAMP, ...)? */
  private readonly integersOnly: boolean[] = [];

  constructor(
    private readonly buf: Bytes,
    private readonly rows: JsonRows,
    fastTimestamps: boolean,
  ) {
    rows.schema.fields.forEach((f, i) => {
      if (i === rows.corruptIdx) return;
      this.names.push(Buffer.from(f.name, "utf8"));
      this.columns.push(i);
      this.modes.push(f.type.kind === "string" ? AS_STRING : f.type.kind === "timestamp" && fastTimestamps ? AS_TIMESTAMP : AS_GENERIC);
      this.integersOnly.push(needsNumberKinds(f.type));
    });
  }

  /** Index of the `\n` (or the buffer's end) that ended the last ROW or BLANK line. */
  lineEnd = 0;

  /** Scans the line starting at `start`; a JSON string cannot hold a raw `\n`, so none is skipped. */
  scan(start: number): number {
    const b = this.buf;
    const end = b.length;
    this.end = end;
    let p = start;
    while (p < end && isSpace(b[p]!)) p++;
    if (p === end || b[p] === NEWLINE) {
      this.lineEnd = p;
      return BLANK;
    }
    if (b[p] !== LBRACE) return FALLBACK;
    this.pos = p + 1;
    if (!this.members()) return FALLBACK;
    p = this.pos;
    while (p < end && isSpace(b[p]!)) p++;
    if (p < end && b[p] !== NEWLINE) return FALLBACK;
    this.lineEnd = p;
    return ROW;
  }

  private skipSpace(): void {
    const b = this.buf;
    let p = this.pos;
    while (p < this.end && isSpace(b[p]!)) p++;
    this.pos = p;
  }

  /** After `{`: `}` or `"key": value` pairs separated by commas, then `}`. */
  private members(): boolean {
    const b = this.buf;
    this.skipSpace();
    if (b[this.pos] === RBRACE && this.pos < this.end) {
      this.pos++;
      return true;
    }
    for (;;) {
      if (this.pos >= this.end || b[this.pos] !== QUOTE) return false;
      const keyStart = this.pos + 1;
      const keyEnd = this.string();
      if (keyEnd < 0) return false;
      const field = this.ascii ? this.wantedAscii(keyStart, keyEnd) : this.wantedDecoded(keyStart, keyEnd);
      this.skipSpace();
      if (this.pos >= this.end || b[this.pos] !== COLON) return false;
      this.pos++;
      this.skipSpace();
      if (field < 0 ? !this.skipValue(0) : !this.fieldValue(field)) return false;
      this.skipSpace();
      if (this.pos >= this.end) return false;
      const c = b[this.pos++];
      if (c === RBRACE) return true;
      if (c !== COMMA) return false;
      this.skipSpace();
    }
  }

  /** Index into the wanted fields of an ASCII key, or -1. */
  private wantedAscii(s: number, e: number): number {
    const n = this.names.length;
    for (let k = 0; k < n; k++) {
      const w = (this.hint + k) % n;
      const name = this.names[w]!;
      if (name.length !== e - s) continue;
      let j = 0;
      while (j < name.length && name[j] === this.buf[s + j]) j++;
      if (j === name.length) {
        this.hint = w + 1 === n ? 0 : w + 1;
        return w;
      }
    }
    return -1;
  }

  /** A key with non-ASCII bytes: compare decoded text (what `JSON.parse` would produce). */
  private wantedDecoded(s: number, e: number): number {
    const key = this.buf.toString("utf8", s, e);
    const fields = this.rows.schema.fields;
    for (let w = 0; w < this.columns.length; w++) if (fields[this.columns[w]!]!.name === key) return w;
    return -1;
  }

  /**
   * At an opening quote: moves past the closing quote and returns the end of the contents, or
   * -1 for an escape (the caller falls back) or a control character (invalid JSON).
   */
  private string(): number {
    const b = this.buf;
    const end = this.end;
    let p = this.pos + 1;
    let high = 0;
    for (;;) {
      if (p >= end) return -1;
      const c = b[p]!;
      if (c === QUOTE) break;
      if (c === BACKSLASH || c < 0x20) return -1;
      high |= c;
      p++;
    }
    this.ascii = high < 0x80;
    this.pos = p + 1;
    return p;
  }

  /** A wanted field's value into the scratch row (nested values fall back). */
  private fieldValue(w: number): boolean {
    const b = this.buf;
    const col = this.columns[w]!;
    const conv = this.rows.converters[col]!;
    const scratch = this.rows.scratch;
    const c = b[this.pos];
    if (c === QUOTE) {
      const s = this.pos + 1;
      const e = this.string();
      if (e < 0) return false;
      const mode = this.modes[w]!;
      if (mode === AS_TIMESTAMP) {
        const micros = isoUtcMicros(b, s, e);
        if (!Number.isNaN(micros)) {
          scratch[col] = micros;
          return true;
        }
      }
      const text = this.ascii ? b.latin1Slice(s, e) : b.utf8Slice(s, e);
      scratch[col] = mode === AS_STRING ? text : conv(text);
      return true;
    }
    if (c === MINUS || isDigit(c!)) {
      const start = this.pos;
      const v = this.number();
      if (v === null) return false;
      if (this.modes[w] === AS_STRING) {
        // An integer's text is the same as written and as Jackson regenerates it (but `-0`);
        // other numbers go to the JS path, which knows which of the two the column wants.
        if (!this.integral || (v === 0 && b[start] === MINUS)) return false;
        scratch[col] = b.latin1Slice(start, this.pos);
        return true;
      }
      scratch[col] = conv(!this.integral && this.integersOnly[w] ? new NumberText(b.latin1Slice(start, this.pos), true) : v);
      return true;
    }
    const lit = this.literal();
    if (lit === undefined) return false; // an object, an array or a syntax error
    scratch[col] = lit === null ? null : conv(lit);
    return true;
  }

  /** `true`, `false` or `null` (undefined if none of them is here). */
  private literal(): boolean | null | undefined {
    const b = this.buf;
    const p = this.pos;
    const c = b[p];
    if (c === 0x74 && p + 4 <= this.end && b[p + 1] === 0x72 && b[p + 2] === 0x75 && b[p + 3] === 0x65) {
      this.pos = p + 4;
      return true;
    }
    if (c === 0x66 && p + 5 <= this.end && b[p + 1] === 0x61 && b[p + 2] === 0x6c && b[p + 3] === 0x73 && b[p + 4] === 0x65) {
      this.pos = p + 5;
      return false;
    }
    if (c === 0x6e && p + 4 <= this.end && b[p + 1] === 0x75 && b[p + 2] === 0x6c && b[p + 3] === 0x6c) {
      this.pos = p + 4;
      return null;
    }
    return undefined;
  }

  /** A JSON number (strict grammar); null if malformed. Short integers skip the text round trip. */
  private number(): number | NumberText | null {
    const b = this.buf;
    const end = this.end;
    const start = this.pos;
    let p = start;
    const neg = b[p] === MINUS;
    if (neg) p++;
    if (p >= end || !isDigit(b[p]!)) return null;
    let value = 0;
    let digits = 0;
    if (b[p] === 0x30) {
      p++;
      digits = 1;
    } else {
      while (p < end && isDigit(b[p]!)) {
        value = value * 10 + (b[p]! - 0x30);
        digits++;
        p++;
      }
    }
    let integral = true;
    if (p < end && b[p] === DOT) {
      integral = false;
      p++;
      const f = p;
      while (p < end && isDigit(b[p]!)) p++;
      if (p === f) return null;
    }
    if (p < end && (b[p] === 0x65 || b[p] === 0x45)) {
      integral = false;
      p++;
      if (p < end && (b[p] === PLUS || b[p] === MINUS)) p++;
      const f = p;
      while (p < end && isDigit(b[p]!)) p++;
      if (p === f) return null;
    }
    this.pos = p;
    this.integral = integral;
    // Up to 15 digits the running value is exact; longer or fractional numbers get the engine's
    // own correctly rounded conversion, as JSON.parse would.
    if (integral && digits <= 15) return neg && value !== 0 ? -value : value; // `-0` is the int 0, as Jackson reads it
    // 16+ digits may exceed 2^53: keep the text, so a BIGINT column gets the exact value.
    if (integral && digits >= 16) return new NumberText(b.toString("latin1", start, p), false);
    // A fraction with more digits than a double holds keeps its text, for DECIMAL columns.
    if (!integral && p - start > 17) return new NumberText(b.toString("latin1", start, p), true);
    return Number(b.toString("latin1", start, p));
  }

  /** Skips (and validates) a value nobody reads. */
  private skipValue(depth: number): boolean {
    if (depth > 512) return false; // let JSON.parse judge absurd nesting
    const b = this.buf;
    if (this.pos >= this.end) return false;
    const c = b[this.pos]!;
    if (c === QUOTE) return this.skipString();
    if (c === MINUS || isDigit(c)) return this.number() !== null;
    if (c === LBRACE) {
      this.pos++;
      this.skipSpace();
      if (this.pos < this.end && b[this.pos] === RBRACE) {
        this.pos++;
        return true;
      }
      for (;;) {
        if (this.pos >= this.end || b[this.pos] !== QUOTE || !this.skipString()) return false;
        this.skipSpace();
        if (this.pos >= this.end || b[this.pos] !== COLON) return false;
        this.pos++;
        this.skipSpace();
        if (!this.skipValue(depth + 1)) return false;
        this.skipSpace();
        if (this.pos >= this.end) return false;
        const d = b[this.pos++];
        if (d === RBRACE) return true;
        if (d !== COMMA) return false;
        this.skipSpace();
      }
    }
    if (c === LBRACKET) {
      this.pos++;
      this.skipSpace();
      if (this.pos < this.end && b[this.pos] === RBRACKET) {
        this.pos++;
        return true;
      }
      for (;;) {
        if (!this.skipValue(depth + 1)) return false;
        this.skipSpace();
        if (this.pos >= this.end) return false;
        const d = b[this.pos++];
        if (d === RBRACKET) return true;
        if (d !== COMMA) return false;
        this.skipSpace();
      }
    }
    return this.literal() !== undefined;
  }

  /** Skips a string, escapes included (validated as JSON.parse would). */
  private skipString(): boolean {
    const b = this.buf;
    const end = this.end;
    let p = this.pos + 1;
    for (;;) {
      if (p >= end) return false;
      const c = b[p]!;
      if (c === QUOTE) break;
      if (c < 0x20) return false;
      if (c === BACKSLASH) {
        const e = b[p + 1];
        if (e === 0x75 /* u */) {
          if (p + 6 > end) return false;
          for (let k = 2; k < 6; k++) if (!isHex(b[p + k]!)) return false;
          p += 6;
          continue;
        }
        if (!(e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74))
          return false;
        p += 2;
        continue;
      }
      p++;
    }
    this.pos = p + 1;
    return true;
  }
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
