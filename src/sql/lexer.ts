/**
 * SQL lexer: turns text into tokens that remember where they start, so parse errors can point
 * at the offending character the way Spark's `(line 1, pos N)` does.
 *
 * Keywords are not distinguished here: Spark treats most keywords as usable identifiers, so the
 * parser decides from context (an `ident` token matched case-insensitively).
 */
import { ParseException } from "../common/errors.js";

export type TokenKind =
  /** Unquoted identifier or keyword. */
  | "ident"
  /** Backticked identifier; never a keyword. */
  | "qident"
  /** Numeric literal text, suffix included (`10L`, `1.5D`, `1e3`). */
  | "number"
  /** String literal; `value` holds the unescaped text. */
  | "string"
  /** Hex binary literal `X'0A1F'`; `value` holds the hex digits. */
  | "binary"
  | "op"
  | "eof";

export interface Token {
  readonly kind: TokenKind;
  /** Source text of the token (as shown in error messages). */
  readonly text: string;
  /** Identifier name, unescaped string contents, or operator symbol. */
  readonly value: string;
  /** Start offset in the source. */
  readonly pos: number;
  /** Offset just past the token. */
  readonly end: number;
}

/**
 * Operators, longest first so `<=>` wins over `<=` and `<`. There is deliberately no `>>`
 * token: `MAP<STRING, ARRAY<INT>>` must close two type brackets.
 */
const OPERATORS = [
  "<=>",
  "<>",
  "<=",
  ">=",
  "!=",
  "==",
  "||",
  "::",
  "->",
  "=>",
  "=",
  "<",
  ">",
  "+",
  "-",
  "*",
  "/",
  "%",
  "&",
  "|",
  "^",
  "~",
  "!",
  "(",
  ")",
  "[",
  "]",
  ",",
  ".",
  ";",
  ":",
  // a positional parameter marker (session.sql(text, [values]))
  "?",
];

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
const isIdentStart = (c: string | undefined): boolean => c !== undefined && (c === "_" || /\p{L}/u.test(c));
const isIdentPart = (c: string | undefined): boolean => isIdentStart(c) || isDigit(c);

/** Build the standard Spark syntax error for a token. */
export function syntaxError(source: string, tok: Token, detail = ""): ParseException {
  const near = tok.kind === "eof" ? "end of input" : `'${tok.text}'`;
  return new ParseException(`[PARSE_SYNTAX_ERROR] Syntax error at or near ${near}${detail}.`, source, tok.pos);
}

export function tokenize(source: string): Token[] {
  const out: Token[] = [];
  const n = source.length;
  let i = 0;
  const fail = (msg: string, at: number): never => {
    throw new ParseException(msg, source, at);
  };
  const push = (kind: TokenKind, start: number, value: string): void => {
    out.push({ kind, text: source.slice(start, i), value, pos: start, end: i });
  };

  while (i < n) {
    const c = source[i]!;
    // Whitespace and comments (`--` to end of line, `/* ... */`; hints are comments too).
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "-" && source[i + 1] === "-") {
      while (i < n && source[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && source[i + 1] === "*") {
      const close = source.indexOf("*/", i + 2);
      if (close < 0) fail("[UNCLOSED_BRACKETED_COMMENT] Found an unclosed bracketed comment.", i);
      i = close + 2;
      continue;
    }
    const start = i;
    // Raw string r'...' (no escapes) and hex binary X'...'.
    if ((c === "r" || c === "R" || c === "x" || c === "X") && (source[i + 1] === "'" || source[i + 1] === '"')) {
      const q = source[i + 1]!;
      const close = source.indexOf(q, i + 2);
      if (close < 0) fail("[PARSE_SYNTAX_ERROR] Syntax error at or near end of input: unclosed string literal.", start);
      const body = source.slice(i + 2, close);
      i = close + 1;
      if (c === "r" || c === "R") push("string", start, body);
      else {
        if (!/^[0-9a-fA-F]*$/.test(body)) fail(`[INVALID_TYPED_LITERAL] The value of the typed literal "X" is invalid: '${body}'.`, start);
        push("binary", start, body);
      }
      continue;
    }
    if (c === "'" || c === '"') {
      i = readString(source, i, fail);
      push("string", start, unescapeSql(source.slice(start + 1, i - 1).replaceAll(c + c, c)));
      continue;
    }
    if (c === "`") {
      let name = "";
      i++;
      for (;;) {
        if (i >= n) fail("[PARSE_SYNTAX_ERROR] Syntax error at or near end of input: unclosed backquoted identifier.", start);
        if (source[i] === "`") {
          if (source[i + 1] === "`") {
            name += "`";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        name += source[i++];
      }
      push("qident", start, name);
      continue;
    }
    if (isDigit(c) || (c === "." && isDigit(source[i + 1]))) {
      i = readNumber(source, i);
      // Spark identifiers may start with digits (`1a`): a number glued to letters is a name.
      if (isIdentPart(source[i])) {
        while (isIdentPart(source[i])) i++;
        push("ident", start, source.slice(start, i));
      } else push("number", start, source.slice(start, i));
      continue;
    }
    if (isIdentStart(c)) {
      while (isIdentPart(source[i])) i++;
      push("ident", start, source.slice(start, i));
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (!op) fail(`[PARSE_SYNTAX_ERROR] Syntax error at or near '${c}'.`, start);
    i += op!.length;
    push("op", start, op!);
  }
  out.push({ kind: "eof", text: "", value: "", pos: n, end: n });
  return out;
}

/** Scan a quoted string starting at `i`; returns the offset after the closing quote. */
function readString(source: string, i: number, fail: (m: string, at: number) => never): number {
  const q = source[i]!;
  let j = i + 1;
  while (j < source.length) {
    const ch = source[j]!;
    if (ch === "\\") j += 2;
    else if (ch === q && source[j + 1] === q)
      j += 2; // a doubled quote is one quote character (Spark 4)
    else if (ch === q) return j + 1;
    else j++;
  }
  return fail("[PARSE_SYNTAX_ERROR] Syntax error at or near end of input: unclosed string literal.", i);
}

/** Digits, optional fraction and exponent, then an optional Spark type suffix (L S Y D F BD). */
function readNumber(source: string, i: number): number {
  while (isDigit(source[i])) i++;
  if (source[i] === "." && !isIdentStart(source[i + 1])) {
    i++;
    while (isDigit(source[i])) i++;
  }
  if (
    (source[i] === "e" || source[i] === "E") &&
    (isDigit(source[i + 1]) || ((source[i + 1] === "+" || source[i + 1] === "-") && isDigit(source[i + 2])))
  ) {
    i += 2;
    while (isDigit(source[i])) i++;
  }
  const rest = source.slice(i, i + 2).toUpperCase();
  if (rest === "BD") return i + 2;
  if (/^[LSYDF]/.test(rest)) return i + 1;
  return i;
}

/** Spark's unescapeSQLString, applied to the body of a quoted literal. */
export function unescapeSql(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== "\\" || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const nx = body[++i]!;
    if (nx === "u" && /^[0-9a-fA-F]{4}$/.test(body.slice(i + 1, i + 5))) {
      out += String.fromCharCode(Number.parseInt(body.slice(i + 1, i + 5), 16));
      i += 4;
    } else if (/^[0-3][0-7][0-7]$/.test(body.slice(i, i + 3))) {
      out += String.fromCharCode(Number.parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else {
      switch (nx) {
        case "0":
          out += "\0";
          break;
        case "b":
          out += "\b";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "Z":
          out += "\x1a";
          break;
        // LIKE wildcards keep their backslash so the pattern still sees an escaped wildcard.
        case "%":
          out += "\\%";
          break;
        case "_":
          out += "\\_";
          break;
        default:
          out += nx;
      }
    }
  }
  return out;
}
