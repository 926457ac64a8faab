/**
 * The order of STRING values: Spark's UTF8_BINARY collation compares the UTF-8 bytes unsigned,
 * which is Unicode code-point order. JS's `<` compares UTF-16 code units instead, and the two
 * disagree only where a character beyond U+FFFF (a surrogate pair, e.g. an emoji) meets one in
 * U+E000..U+FFFF at the first difference: the surrogate unit (0xD800..0xDFFF) is smaller as a
 * code unit, its character larger as a code point.
 *
 * `compareStrings` is exact for any pair. A kernel that compares many strings can instead ask
 * once per value (`hasSurrogate`, `hasHighUnit`) whether JS's native `compareUtf16`, the
 * fastest comparison there is, already is code-point order for them (columnar/string-order.ts).
 */

/** Code-point order (= unsigned UTF-8 byte order): negative, 0 or positive. */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x < 0xd800 || y < 0xd800 ? x - y : codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/**
 * A code unit >= 0xD800 ranked by the characters it can start: U+E000..U+FFFF below every
 * surrogate, whose characters are U+10000 and above. Applied to both sides of the first
 * difference only, so it never changes the order of two units on the same side of 0xE000.
 */
function codePointRank(u: number): number {
  return u >= 0xe000 ? u - 0x800 : u + 0x2000;
}

/** JS's own string order (UTF-16 code units): code-point order when neither string holds a surrogate. */
export function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** `s` holds a UTF-16 surrogate unit (a character beyond U+FFFF, or a lone surrogate). */
export function hasSurrogate(s: string): boolean {
  return SURROGATE.test(s);
}

const HIGH_UNIT = /[\uD800-\uFFFF]/;

/**
 * `s` holds a UTF-16 unit >= 0xD800. When one of two strings holds none, JS's native order of
 * the two is code-point order (their first difference has a unit below 0xD800 on one side).
 */
export function hasHighUnit(s: string): boolean {
  return HIGH_UNIT.test(s);
}
