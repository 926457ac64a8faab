/** Zero-padded two-digit text, looked up rather than built (the hot path of timestamp formatting). */
export const TWO_DIGITS: readonly string[] = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : `${i}`));

export function pad2(n: number): string {
  return n < 100 && n >= 0 ? TWO_DIGITS[n]! : String(n);
}
