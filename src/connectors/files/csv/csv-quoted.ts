/**
 * One quoted CSV value, read as univocity (Spark's CSV parser) reads it with Spark's settings:
 * escape `\` by default, the escape's own escape (`charToEscapeQuoteEscaping`) the escape itself
 * when it differs from the quote, and unescaped quotes handled STOP_AT_DELIMITER. What that means
 * for input that is not plain `"text"`:
 *
 * - `\"` is a quote and `\\` a backslash; a backslash before anything else stays.
 * - `""` is a quote, but a quote that closes the value and is followed by anything other than
 *   white space, the separator or the line's end makes the whole value its text from the
 *   opening quote to the next separator, escapes already read included: `"a""b",` is `"a""b"`
 *   and `"a"b"c",` is `"a"b"c"` (Spark's default reads RFC 4180's doubled quotes this way; the
 *   option `escape` `"` reads them as RFC 4180 does).
 * - White space between the closing quote and the separator is dropped; anything else after
 *   it makes the value `"text" more...` up to the separator.
 * - A line (or, with `multiLine`, the input) that ends inside the value ends the value there;
 *   with `multiLine` a `\r\n` inside the value is read as `\n`.
 */

import type { Bytes } from "../byte-values.js";

const LF = 0x0a;
const CR = 0x0d;
const NONE = -1;

/** The input: a string (code units) or UTF-8 bytes (every structural character is ASCII, so positions agree). */
export interface QuotedSource {
  readonly length: number;
  at(p: number): number;
  slice(s: number, e: number): string;
}

export function textSource(t: string): QuotedSource {
  return { length: t.length, at: (p) => t.charCodeAt(p), slice: (s, e) => t.slice(s, e) };
}

export function bytesSource(b: Bytes): QuotedSource {
  return { length: b.length, at: (p) => b[p] ?? Number.NaN, slice: (s, e) => b.utf8Slice(s, e) };
}

export interface QuotedSyntax {
  readonly quote: number;
  /** The escape character, or NONE. */
  readonly escape: number;
  /** Does the record go on past a line break inside quotes (`multiLine`)? */
  readonly multiLine: boolean;
  readonly ignoreTrailingWhiteSpace: boolean;
  readonly atSeparator: (p: number) => boolean;
}

export interface QuotedValue {
  value: string;
  /** Where the value ends: at the separator, the line break, or the input's end. */
  end: number;
  /** Line breaks inside the value (multiLine). */
  lineBreaks: number;
}

const isBreak = (c: number): boolean => c === LF || c === CR;
/** univocity's white space: any control character or space (not the separator or a line break). */
const isWhite = (c: number): boolean => c <= 0x20 && c > 0 && !isBreak(c);

/** Reads the value whose opening quote is at `open`. */
export function readQuotedValue(t: QuotedSource, open: number, syn: QuotedSyntax): QuotedValue {
  const q = syn.quote;
  const esc = syn.escape;
  const escEsc = esc !== q ? esc : NONE;
  const n = t.length;
  let lineBreaks = 0;
  let p = open + 1;
  // The usual value: no quote or escape inside, the closing quote right before the separator or line end.
  while (p < n && t.at(p) !== q && t.at(p) !== esc && !isBreak(t.at(p))) p++;
  if (p < n && t.at(p) === q && (p + 1 >= n || isBreak(t.at(p + 1)) || syn.atSeparator(p + 1))) {
    return { value: t.slice(open + 1, p), end: p + 1, lineBreaks };
  }
  p = open + 1;
  let out = "";
  let prev = NONE;
  /** Is `p` where the value must stop whatever the state (a line break without multiLine, or the input's end)? */
  const atEnd = (): boolean => p >= n || (!syn.multiLine && isBreak(t.at(p)));
  const ends = (): boolean => p >= n || isBreak(t.at(p)) || syn.atSeparator(p);
  /** STOP_AT_DELIMITER: the text read so far in quotes, then the line as it is up to the separator. */
  const rawToSeparator = (soFar: string): QuotedValue => {
    const s = p;
    while (!ends()) p++;
    let value = String.fromCharCode(q) + soFar + t.slice(s, p);
    if (syn.ignoreTrailingWhiteSpace) value = value.replace(/[\t ]+$/, "");
    return { value, end: p, lineBreaks };
  };
  const done = (): QuotedValue => ({ value: out, end: p, lineBreaks });

  for (;;) {
    if (atEnd()) return done();
    const c = t.at(p);
    if (prev === q && (isWhite(c) || isBreak(c) || syn.atSeparator(p))) break;
    if (c !== q && c !== esc) {
      if (prev === q) return rawToSeparator(out + String.fromCharCode(q)); // from `c` on (a byte source's c may start a UTF-8 sequence)
      if (prev === esc && esc !== NONE) out += String.fromCharCode(esc);
      // plain text up to the next quote or escape
      const s = p;
      let crlf = false;
      while (p < n && t.at(p) !== q && t.at(p) !== esc) {
        if (isBreak(t.at(p))) {
          if (!syn.multiLine) break;
          if (t.at(p) === LF || t.at(p + 1) !== LF) lineBreaks++;
          else crlf = true;
        }
        p++;
      }
      // univocity normalizes a line break inside quotes to \n
      out += crlf ? t.slice(s, p).replaceAll("\r\n", "\n") : t.slice(s, p);
      if (atEnd()) return done();
      prev = t.at(p);
      p++;
      continue;
    }
    // a quote or an escape
    let read = c;
    if (c === esc && prev === escEsc && escEsc !== NONE) {
      out += String.fromCharCode(esc);
      read = NONE;
    } else if (prev === esc && esc !== NONE) {
      if (c === q) {
        out += String.fromCharCode(q);
        read = NONE;
      } else out += String.fromCharCode(prev);
    } else if (c === q && prev === q) {
      out += String.fromCharCode(q);
    } else if (prev === q) {
      // a closing quote, then an escape: the rest is an unquoted value after `text"`
      out += String.fromCharCode(q);
      const s = p;
      while (!ends()) p++;
      return { value: out + t.slice(s, p), end: p, lineBreaks };
    }
    prev = read;
    p++;
  }
  // After the closing quote: white space up to the separator is dropped, anything else joins the value.
  const s = p;
  while (p < n && isWhite(t.at(p))) p++;
  if (ends()) return done();
  return rawToSeparator(out + String.fromCharCode(q) + t.slice(s, p));
}
