/**
 * CSV straight from bytes into columns. The scanner follows CsvTokenizer's grammar step by step
 * on the UTF-8 bytes (every structural character — separator, quote, escape, comment, line end —
 * is ASCII, and a UTF-8 multi-byte sequence never contains an ASCII byte, so token boundaries are
 * the same in bytes and in decoded text). Unquoted integers, short decimals and ISO-8601 UTC
 * timestamps are converted from the bytes; a string is created only for a STRING column, a
 * quoted token, or a token the fast conversions do not cover, and that string goes through the
 * same `textConverter` as the text path. Option sets the scanner does not mirror (a multi-char
 * or non-ASCII separator, quote, escape or comment) take the text path (`readCsvText`) for the
 * whole file. Both paths give the same rows (test/connectors/csv-scan.property.test.ts). With
 * `arus.columnar.utf8Strings` STRING columns are UTF-8 vectors and an unquoted token of one is
 * copied as bytes, never made a JS string (`ByteSlice`, ../utf8-builder.ts).
 */
import { isUtf8 } from "node:buffer";
import type { Batch } from "../../../columnar/batch.js";
import { utf8Strings } from "../../../columnar/utf8-conf.js";
import type { StructType } from "../../../types/datatypes.js";
import { asBytes, type Bytes, isoUtcMicros } from "../byte-values.js";
import type { DateTimeText } from "../datetime-text.js";
import { decodeText } from "../lines.js";
import { FAIL } from "../text-values.js";
import { ByteSlice } from "../utf8-builder.js";
import { type CsvReadOptions, tokenValue } from "./csv-options.js";
import { bytesSource, type QuotedSource, type QuotedSyntax, readQuotedValue } from "./csv-quoted.js";
import { CsvRows, readCsvText } from "./csv-read.js";

const LF = 0x0a;
const CR = 0x0d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;

/** How an unquoted token becomes its column value. */
const AS_GENERIC = 0; // decoded text through the column's converter
const AS_STRING = 1;
const AS_BIGINT = 2;
const AS_INT = 3;
const AS_DOUBLE = 4;
const AS_TIMESTAMP = 5;
const AS_SKIP = 6; // a column a pruned scan does not convert (NULL)

const STOP = 1;
const NON_ASCII = 2;

/** Exact powers of ten: an integer below 2^53 divided by one is correctly rounded, as Number() is. */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** A syntax character's byte (-1 = disabled), or null if the scanner cannot mirror it. */
function syntaxByte(ch: string, disabledIfNul: boolean): number | null {
  if (ch.length !== 1) return null;
  const c = ch.charCodeAt(0);
  if (c === 0 && disabledIfNul) return -1;
  return c < 0x80 && c !== LF && c !== CR ? c : null;
}

/** Text equal to `nullValue` is NULL; compared as UTF-8 bytes, which is exact unless it holds U+FFFD or a lone surrogate. */
function nullValueBytes(v: string): Buffer | null | undefined {
  if (v === "") return null; // empty tokens are NULL anyway
  const bytes = Buffer.from(v, "utf8");
  return v.includes("\uFFFD") || bytes.toString("utf8") !== v ? undefined : bytes;
}

/** Would the fast decimal grammar (`[+-]?digits[.digits]`) match this text? */
const decimalLike = (v: string): boolean => /^[+-]?[0-9]*\.?[0-9]*$/.test(v);

/** `convert`: with column pruning, the columns converted (the others NULL, their tokens skipped). */
export function readCsvBytes(
  file: string,
  input: Uint8Array,
  schema: StructType,
  o: CsvReadOptions,
  dt: DateTimeText,
  convert: ReadonlySet<number> | null = null,
): Batch[] {
  const syn = o.syntax;
  const sep = syntaxByte(syn.sep, false);
  const quote = syntaxByte(syn.quote, true);
  const escByte = syntaxByte(syn.escape, true);
  const comment = syntaxByte(syn.comment, true);
  const nullBytes = nullValueBytes(o.nullValue);
  if (sep === null || quote === null || escByte === null || comment === null || nullBytes === undefined)
    return readCsvText(file, decodeText(input), schema, o, dt, utf8Strings(), convert);
  const buf = asBytes(input);
  // decodeText drops two BOMs: TextDecoder strips one, then decodeText another.
  let pos = 0;
  for (let k = 0; k < 2; k++) if (buf[pos] === 0xef && buf[pos + 1] === 0xbb && buf[pos + 2] === 0xbf) pos += 3;
  // STRING columns as UTF-8 vectors; unquoted tokens are copied as bytes when the whole input
  // is valid UTF-8 (otherwise each is decoded, U+FFFD for a bad sequence, as the text path does).
  const utf8 = utf8Strings();
  const rows = new CsvRows(file, schema, o, dt, utf8, convert);
  const fastDouble = !(decimalLike(o.nanValue) || decimalLike(o.positiveInf) || decimalLike(o.negativeInf));
  const modes = schema.fields.map((f, i) => {
    if (convert && !convert.has(i)) return AS_SKIP;
    switch (f.type.kind) {
      case "string":
        return AS_STRING;
      case "bigint":
        return AS_BIGINT;
      case "int":
        return AS_INT;
      case "double":
        return fastDouble ? AS_DOUBLE : AS_GENERIC;
      case "timestamp":
        return dt.customTimestampFormat ? AS_GENERIC : AS_TIMESTAMP;
      default:
        return AS_GENERIC;
    }
  });
  const slices = schema.fields.map((f, i) => (utf8 && f.type.kind === "string" && modes[i] !== AS_SKIP ? new ByteSlice(buf) : null));
  const bytesAsIs = utf8 && slices.some((x) => x !== null) && isUtf8(buf);
  new CsvScanner(buf, pos, rows, modes, sep, quote, escByte, comment, nullBytes, o, bytesAsIs ? slices : null).run();
  return rows.finish();
}

class CsvScanner {
  private readonly n: number;
  private nextLine = 1;
  /** Tokens of the current record so far, and how many of them are converted (0 for a header). */
  private count = 0;
  private limit = 0;
  private readonly dataIdx: readonly number[];
  private readonly convs: readonly ((s: string) => unknown)[];
  private readonly scratch: unknown[];
  private bad = false;
  /** Byte range of the current record (terminator excluded). */
  private start = 0;
  private end = 0;
  private readonly lead: boolean;
  /** Per byte value: STOP ends an unquoted token, NON_ASCII needs UTF-8 decoding, 0 otherwise. */
  private readonly stops = new Uint8Array(256);
  private readonly trail: boolean;
  private readonly multiLine: boolean;
  private readonly quotedSyntax: QuotedSyntax;
  private readonly source: QuotedSource;

  constructor(
    private readonly b: Bytes,
    private pos: number,
    private readonly rows: CsvRows,
    private readonly modes: readonly number[],
    private readonly sep: number,
    private readonly quote: number,
    esc: number,
    private readonly comment: number,
    private readonly nullBytes: Buffer | null,
    private readonly o: CsvReadOptions,
    /** Per column, the token range a STRING column's UTF-8 builder copies; null: make JS strings. */
    private readonly slices: readonly (ByteSlice | null)[] | null,
  ) {
    this.n = b.length;
    this.dataIdx = rows.dataIdx;
    this.convs = rows.convs;
    this.scratch = rows.scratch;
    this.lead = o.syntax.ignoreLeadingWhiteSpace;
    this.trail = o.syntax.ignoreTrailingWhiteSpace;
    this.multiLine = o.syntax.multiLine === true;
    this.stops.fill(NON_ASCII, 0x80);
    this.stops[LF] = this.stops[CR] = this.stops[sep] = STOP;
    rows.recordText = () => b.utf8Slice(this.start, this.end);
    this.source = bytesSource(b);
    this.quotedSyntax = {
      quote,
      escape: esc,
      multiLine: this.multiLine,
      ignoreTrailingWhiteSpace: this.trail,
      atSeparator: (at) => b[at] === sep,
    };
  }

  /** CsvTokenizer.skipNewline. */
  private skipNewline(p: number): number {
    const c = this.b[p];
    if (c === CR) {
      this.nextLine++;
      return this.b[p + 1] === LF ? p + 2 : p + 1;
    }
    if (c === LF) {
      this.nextLine++;
      return p + 1;
    }
    return p;
  }

  run(): void {
    const b = this.b;
    const n = this.n;
    const nd = this.dataIdx.length;
    const rows = this.rows;
    let p = this.pos;
    let first = true;
    for (;;) {
      // Blank lines and comment lines are not records.
      for (;;) {
        if (p >= n) return;
        const c = b[p]!;
        if (c === LF || c === CR) p = this.skipNewline(p);
        else if (c === this.comment) {
          while (p < n && b[p] !== LF && b[p] !== CR) p++;
          p = this.skipNewline(p);
        } else break;
      }
      this.start = p;
      const line = this.nextLine;
      this.count = 0;
      this.bad = false;
      this.limit = first && this.o.header ? 0 : nd;
      for (;;) {
        p = this.field(p);
        if (p < n && b[p] === this.sep) {
          p++;
          if (p >= n || b[p] === LF || b[p] === CR) {
            this.unquoted(p, p, 0); // trailing separator: one more empty token
            break;
          }
          continue;
        }
        break;
      }
      this.end = p;
      p = this.skipNewline(p);
      if (first && this.o.header) {
        first = false;
        continue;
      }
      first = false;
      for (let k = this.count; k < nd; k++) this.scratch[this.dataIdx[k]!] = null;
      rows.commit(this.bad || (!rows.anyTokenCount && this.count !== nd), line);
    }
  }

  /** One token at p (CsvTokenizer.field); returns the position of the separator/terminator/end. */
  private field(p: number): number {
    const b = this.b;
    const n = this.n;
    if (this.lead) while (p < n && (b[p] === 0x20 || b[p] === 0x09)) p++;
    if (p < n && b[p] === this.quote) return this.quotedField(p + 1);
    const s = p;
    const stops = this.stops;
    let t = 0;
    while (p < n && (t = stops[b[p]!]!) === 0) p++;
    let high = 0;
    if (t === NON_ASCII) {
      high = 0x80;
      while (p < n && stops[b[p]!] !== STOP) p++;
    }
    let e = p;
    if (this.trail) while (e > s && (b[e - 1] === 0x20 || b[e - 1] === 0x09)) e--;
    this.unquoted(s, e, high);
    return p;
  }

  /** An unquoted token's value (tokenValue + the column converter), fast paths first. */
  private unquoted(s: number, e: number, high: number): void {
    const k = this.count++;
    if (k >= this.limit) return;
    const col = this.dataIdx[k]!;
    let v: unknown;
    if (s === e || (this.nullBytes !== null && this.isNull(s, e))) v = null;
    else {
      const b = this.b;
      switch (this.modes[col]) {
        case AS_SKIP:
          v = null;
          break;
        case AS_STRING: {
          const slice = this.slices?.[col];
          if (slice) {
            slice.start = s;
            slice.end = e;
            slice.ascii = high < 0x80;
            v = slice;
          } else v = high < 0x80 ? b.latin1Slice(s, e) : b.utf8Slice(s, e);
          break;
        }
        case AS_BIGINT:
          v = this.integer(s, e, col, true);
          break;
        case AS_INT:
          v = this.integer(s, e, col, false);
          break;
        case AS_DOUBLE:
          v = this.decimal(s, e, col);
          break;
        case AS_TIMESTAMP:
          v = isoUtcMicros(b, s, e);
          if (Number.isNaN(v)) v = this.convs[col]!(b.utf8Slice(s, e));
          break;
        default:
          v = this.convs[col]!(high < 0x80 ? b.latin1Slice(s, e) : b.utf8Slice(s, e));
      }
    }
    if (v === FAIL) {
      this.bad = true;
      v = null;
    }
    this.scratch[col] = v;
  }

  private isNull(s: number, e: number): boolean {
    const nb = this.nullBytes!;
    if (e - s !== nb.length) return false;
    for (let j = 0; j < nb.length; j++) if (this.b[s + j] !== nb[j]) return false;
    return true;
  }

  /**
   * Java's parseLong/parseInt (`[+-]?\d+`): any other byte fails, as the converter's regex
   * does. Up to 15 digits the running value is exact; longer ones go through the converter.
   */
  private integer(s: number, e: number, col: number, long: boolean): unknown {
    const b = this.b;
    let p = s;
    const c0 = b[p];
    const neg = c0 === MINUS;
    if (neg || c0 === PLUS) p++;
    if (p === e) return FAIL;
    let v = 0;
    for (let q = p; q < e; q++) {
      const d = b[q]! - 0x30;
      if (d < 0 || d > 9) return FAIL;
      v = v * 10 + d;
    }
    if (e - p > 15) return this.convs[col]!(b.latin1Slice(s, e));
    if (long) return neg ? 0 - v : v; // Number(BigInt("-0")) is +0
    const r = neg ? -v : v; // Number("-0") is -0
    return r >= -2147483648 && r <= 2147483647 ? r : FAIL;
  }

  /**
   * `[+-]?digits[.digits]` with at most 15 digits: digits / 10^fraction is correctly rounded,
   * so equal to Number() of the text. Anything else (exponent, suffix, NaN, blanks, ...) goes
   * through the converter.
   */
  private decimal(s: number, e: number, col: number): unknown {
    const b = this.b;
    let p = s;
    const c0 = b[p];
    const neg = c0 === MINUS;
    if (neg || c0 === PLUS) p++;
    let v = 0;
    let digits = 0;
    let frac = -1;
    for (; p < e; p++) {
      const c = b[p]!;
      const d = c - 0x30;
      if (d >= 0 && d <= 9) {
        v = v * 10 + d;
        digits++;
        if (frac >= 0) frac++;
      } else if (c === DOT && frac < 0) frac = 0;
      else break;
    }
    if (p !== e || digits === 0 || digits > 15) return this.convs[col]!(b.utf8Slice(s, e));
    const r = frac > 0 ? v / POW10[frac]! : v;
    return neg ? -r : r;
  }

  /** CsvTokenizer.quotedField, after the opening quote: the token is always a string. */
  private quotedField(p: number): number {
    const r = readQuotedValue(this.source, p - 1, this.quotedSyntax);
    this.nextLine += r.lineBreaks;
    this.quotedToken(r.value);
    return r.end;
  }

  private quotedToken(tok: string): void {
    const k = this.count++;
    if (k >= this.limit) return;
    const col = this.dataIdx[k]!;
    if (this.modes[col] === AS_SKIP) {
      this.scratch[col] = null;
      return;
    }
    const t = tokenValue(tok, true, this.o);
    let v = t === null ? null : this.convs[col]!(t);
    if (v === FAIL) {
      this.bad = true;
      v = null;
    }
    this.scratch[col] = v;
  }
}
