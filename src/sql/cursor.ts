/**
 * A cursor over the token list with the small matching helpers every sub-parser needs
 * (keywords are matched case-insensitively on `ident` tokens only, never on backticked names).
 */
import { ParseException } from "../common/errors.js";
import { syntaxError, type Token, tokenize } from "./lexer.js";

export class Cursor {
  readonly tokens: Token[];
  private i = 0;

  constructor(readonly source: string) {
    this.tokens = tokenize(source);
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
