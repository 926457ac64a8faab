/**
 * CSV record tokenizer (univocity-compatible defaults): separator (one or more chars), quoted
 * values read as univocity reads them (csv-quoted.ts), quoted fields spanning lines, blank lines
 * skipped, optional comment lines. Tokens are sliced from the input without per-char copying.
 */

import { type QuotedSource, type QuotedSyntax, readQuotedValue, textSource } from "./csv-quoted.js";

export interface CsvSyntax {
  readonly sep: string;
  /** "\u0000" disables quoting. */
  readonly quote: string;
  readonly escape: string;
  /** "\u0000" = no comment lines. */
  readonly comment: string;
  readonly ignoreLeadingWhiteSpace: boolean;
  readonly ignoreTrailingWhiteSpace: boolean;
  /**
   * Spark's `multiLine` (default false): without it the input is split into lines first, so a
   * quoted value cannot span lines; an unbalanced quote ends at its line's end (the value is the
   * rest of that line) and damages only its own record.
   */
  readonly multiLine?: boolean;
}

const LF = 0x0a;
const CR = 0x0d;

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

export class CsvTokenizer {
  /** Tokens of the current record (valid up to `count`). */
  readonly fields: string[] = [];
  /** Whether each token was quoted (a quoted "" is an empty value, not a null). */
  readonly quoted: boolean[] = [];
  count = 0;
  /** 1-based line where the current record starts. */
  line = 0;
  /** Offsets of the current record's text (terminator excluded). */
  start = 0;
  end = 0;

  private pos = 0;
  private nextLine = 1;
  private readonly sepCode: number;
  private readonly quoteCode: number;
  private readonly escCode: number;
  private readonly commentCode: number;
  private readonly quotedSyntax: QuotedSyntax;
  private readonly source: QuotedSource;

  constructor(
    private readonly text: string,
    private readonly syn: CsvSyntax,
  ) {
    this.sepCode = syn.sep.length === 1 ? syn.sep.charCodeAt(0) : -1;
    this.quoteCode = syn.quote === "\u0000" ? -1 : syn.quote.charCodeAt(0);
    this.escCode = syn.escape === "\u0000" ? -1 : syn.escape.charCodeAt(0);
    this.commentCode = syn.comment === "\u0000" ? -1 : syn.comment.charCodeAt(0);
    this.source = textSource(text);
    this.quotedSyntax = {
      quote: this.quoteCode,
      escape: this.escCode,
      multiLine: syn.multiLine === true,
      ignoreTrailingWhiteSpace: syn.ignoreTrailingWhiteSpace,
      atSeparator: (p) => this.atSep(p),
    };
  }

  /** The raw text of the current record. */
  recordText(): string {
    return this.text.slice(this.start, this.end);
  }

  private atSep(p: number): boolean {
    const t = this.text;
    return this.sepCode >= 0 ? t.charCodeAt(p) === this.sepCode : t.startsWith(this.syn.sep, p);
  }

  /** Skips one line terminator at p (if any) and returns the new position. */
  private skipNewline(p: number): number {
    const c = this.text.charCodeAt(p);
    if (c === CR) {
      this.nextLine++;
      return this.text.charCodeAt(p + 1) === LF ? p + 2 : p + 1;
    }
    if (c === LF) {
      this.nextLine++;
      return p + 1;
    }
    return p;
  }

  /** Advances to the next record; false at end of input. */
  next(): boolean {
    const t = this.text;
    const n = t.length;
    let p = this.pos;
    // Blank lines and comment lines are not records.
    for (;;) {
      if (p >= n) {
        this.pos = p;
        return false;
      }
      const c = t.charCodeAt(p);
      if (c === LF || c === CR) p = this.skipNewline(p);
      else if (c === this.commentCode) {
        while (p < n && t.charCodeAt(p) !== LF && t.charCodeAt(p) !== CR) p++;
        p = this.skipNewline(p);
      } else break;
    }
    this.start = p;
    this.line = this.nextLine;
    this.count = 0;
    const sepLen = this.syn.sep.length;
    for (;;) {
      p = this.field(p);
      if (p < n && this.atSep(p)) {
        p += sepLen;
        if (p >= n || t.charCodeAt(p) === LF || t.charCodeAt(p) === CR) {
          this.push("", false); // trailing separator: one more empty token
          break;
        }
        continue;
      }
      break;
    }
    this.end = p;
    this.pos = this.skipNewline(p);
    return true;
  }

  private push(v: string, quoted: boolean): void {
    this.fields[this.count] = v;
    this.quoted[this.count] = quoted;
    this.count++;
  }

  /** Reads one token starting at p; returns the position of the separator/terminator/end. */
  private field(p: number): number {
    const t = this.text;
    const n = t.length;
    if (this.syn.ignoreLeadingWhiteSpace) while (p < n && isBlank(t.charCodeAt(p))) p++;
    if (p < n && t.charCodeAt(p) === this.quoteCode) return this.quotedField(p + 1);
    const s = p;
    while (p < n) {
      const c = t.charCodeAt(p);
      if (c === LF || c === CR || this.atSep(p)) break;
      p++;
    }
    let e = p;
    if (this.syn.ignoreTrailingWhiteSpace) while (e > s && isBlank(t.charCodeAt(e - 1))) e--;
    this.push(t.slice(s, e), false);
    return p;
  }

  private quotedField(p: number): number {
    const r = readQuotedValue(this.source, p - 1, this.quotedSyntax);
    this.nextLine += r.lineBreaks;
    this.push(r.value, true);
    return r.end;
  }
}
