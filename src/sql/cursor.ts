/**
 * A cursor over the token list with the small matching helpers every sub-parser needs
 * (keywords are matched case-insensitively on `ident` tokens only, never on backticked names).
 */
import { AnalysisException, ParseException } from "../common/errors.js";
import type { Expr } from "../plan/expressions.js";
import { syntaxError, type Token, tokenize } from "./lexer.js";

/**
 * The values of a parameterized query's markers (`session.sql(text, args)`), already literals
 * (or a Column's expression): `:name` from `named`, `?` from `positional` in order.
 */
export interface SqlParameters {
  readonly named?: ReadonlyMap<string, Expr>;
  readonly positional?: readonly Expr[];
}

export class Cursor {
  readonly tokens: Token[];
  private i = 0;
  /** Each `?` token's place among them (bound in text order, however often a backtrack re-reads it). */
  private readonly positions = new Map<number, number>();
  /** The kinds of marker read so far: one query may not mix them. */
  private readonly markersRead = new Set<"named" | "positional">();

  constructor(
    readonly source: string,
    private readonly params: SqlParameters = {},
  ) {
    this.tokens = tokenize(source);
    this.tokens.forEach((t, k) => {
      if (t.kind === "op" && t.value === "?") this.positions.set(k, this.positions.size);
    });
  }

  /** `:name` with nothing between the colon and the name (not `a::int`, not `struct<a: int>`). */
  private isNamedMarker(k: number): boolean {
    const colon = this.tokens[k]!;
    const name = this.tokens[k + 1];
    return name !== undefined && (name.kind === "ident" || name.kind === "qident") && name.pos === colon.end;
  }

  private marker(kind: "named" | "positional"): void {
    this.markersRead.add(kind);
    if (this.markersRead.size > 1) {
      throw new AnalysisException(
        "INVALID_QUERY_MIXED_QUERY_PARAMETERS",
        "[INVALID_QUERY_MIXED_QUERY_PARAMETERS] Parameterized query must either use positional, or named parameters, but not both.",
      );
    }
  }

  /**
   * A parameter marker at the cursor (`:name` or `?`) read as its value, or null when there is
   * none. Unbound: UNBOUND_SQL_PARAMETER, a positional marker named `_<offset>` as in Spark.
   */
  acceptParameter(): Expr | null {
    const t = this.peek();
    if (t.kind !== "op") return null;
    if (t.value === "?") {
      this.marker("positional");
      const v = this.params.positional?.[this.positions.get(this.i)!];
      this.next();
      if (v === undefined) throw unboundParameter(`_${t.pos}`);
      return v;
    }
    if (t.value !== ":" || !this.isNamedMarker(this.i)) return null;
    this.marker("named");
    this.next();
    const name = this.next().value;
    const v = this.params.named?.get(name);
    if (v === undefined) throw unboundParameter(name);
    return v;
  }

  get index(): number {
    return this.i;
  }
  /** Backtrack to a saved index (used for small lookahead decisions). */
  reset(index: number): void {
    this.i = index;
  }
  peek(k = 0): Token {
    return this.tokens[Math.min(this.i + k, this.tokens.length - 1)]!;
  }
  next(): Token {
    const t = this.peek();
    if (t.kind !== "eof") this.i++;
    return t;
  }
  atEnd(): boolean {
    return this.peek().kind === "eof";
  }

  isKeyword(word: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === "ident" && t.value.toUpperCase() === word;
  }
  /** True when the next tokens are exactly these keywords. */
  isKeywords(...words: string[]): boolean {
    return words.every((w, k) => this.isKeyword(w, k));
  }
  acceptKeyword(...words: string[]): boolean {
    if (!this.isKeywords(...words)) return false;
    this.i += words.length;
    return true;
  }
  expectKeyword(...words: string[]): void {
    for (const w of words) {
      if (!this.isKeyword(w)) throw this.error();
      this.i++;
    }
  }

  isOp(op: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === "op" && t.value === op;
  }
  acceptOp(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.i++;
    return true;
  }
  expectOp(op: string): Token {
    if (!this.isOp(op)) throw this.error();
    return this.next();
  }

  /** Identifier (plain or backticked); `reserved` lists keywords not allowed here. */
  isIdentifier(reserved?: ReadonlySet<string>, k = 0): boolean {
    const t = this.peek(k);
    if (t.kind === "qident") return true;
    return t.kind === "ident" && !(reserved?.has(t.value.toUpperCase()) ?? false);
  }
  identifier(reserved?: ReadonlySet<string>): string {
    if (!this.isIdentifier(reserved)) throw this.error();
    return this.next().value;
  }

  /** `[PARSE_SYNTAX_ERROR] Syntax error at or near 'X'.` at the given (default: next) token. */
  error(tok: Token = this.peek(), detail = ""): ParseException {
    return syntaxError(this.source, tok, detail);
  }
  /** Any other parse error, e.g. `[UNSUPPORTED_DATATYPE] ...`, pointing at a token. */
  fail(message: string, tok: Token = this.peek()): ParseException {
    return new ParseException(message, this.source, tok.pos);
  }
  expectEnd(): void {
    this.acceptOp(";");
    if (!this.atEnd()) throw this.error();
  }
}

function unboundParameter(name: string): AnalysisException {
  return new AnalysisException(
    "UNBOUND_SQL_PARAMETER",
    `[UNBOUND_SQL_PARAMETER] Found the unbound parameter: ${name}. Please, fix \`args\` and provide a mapping of the parameter to either a SQL literal or collection constructor functions such as \`map()\`, \`array()\`, \`struct()\`.`,
  );
}
