/**
 * The scale-out verdict (not a test file itself), from what a read_committed reader sees at the
 * end: (a) out-raw holds every input record's value exactly once (a multiset compare: no
 * duplicate, no loss, nothing else); (b) out holds every (key, window) of the oracle exactly once
 * with its count and sum, and no other window. Pure functions over the records read.
 */
import { type WindowResult, windowKey } from "./events.js";

export interface RawVerdict {
  readonly expected: number;
  readonly committed: number;
  /** Copies beyond the first of an input value. */
  readonly duplicates: number;
  /** Input values with no copy. */
  readonly missing: number;
  /** Committed values that are no input value. */
  readonly unexpected: number;
  /** A few of each, for the failure message. */
  readonly examples: string[];
}

export function verifyRaw(inputValues: readonly string[], committed: readonly string[]): RawVerdict {
  const want = new Map<string, number>();
  for (const v of inputValues) want.set(v, (want.get(v) ?? 0) + 1);
  const got = new Map<string, number>();
  for (const v of committed) got.set(v, (got.get(v) ?? 0) + 1);
  let duplicates = 0;
  let missing = 0;
  let unexpected = 0;
  const examples: string[] = [];
  const note = (s: string) => examples.length < 10 && examples.push(s);
  for (const [v, n] of want) {
    const g = got.get(v) ?? 0;
    if (g < n) {
      missing += n - g;
      note(`missing ${v}`);
    } else if (g > n) {
      duplicates += g - n;
      note(`${g - n + 1} copies of ${v}`);
    }
  }
  for (const [v, g] of got) {
    if (!want.has(v)) {
      unexpected += g;
      note(`unexpected ${v}`);
    }
  }
  return { expected: inputValues.length, committed: committed.length, duplicates, missing, unexpected, examples };
}

export interface AggVerdict {
  readonly expectedWindows: number;
  readonly committed: number;
  /** Copies beyond the first of a (key, window). */
  readonly duplicates: number;
  readonly missing: number;
  /** Windows the oracle does not have (or values that are not the pipeline's JSON). */
  readonly unexpected: number;
  /** Windows whose count or sum differs from the oracle's. */
  readonly wrong: number;
  readonly examples: string[];
}

export function verifyAgg(expected: ReadonlyMap<string, WindowResult>, committed: readonly string[]): AggVerdict {
  const seen = new Map<string, number>();
  let unexpected = 0;
  let wrong = 0;
  const examples: string[] = [];
  const note = (s: string) => examples.length < 10 && examples.push(s);
  for (const value of committed) {
    let w: WindowResult;
    try {
      w = JSON.parse(value) as WindowResult;
    } catch {
      unexpected++;
      note(`not JSON: ${value}`);
      continue;
    }
    const key = windowKey(w.k, w.ws);
    seen.set(key, (seen.get(key) ?? 0) + 1);
    const want = expected.get(key);
    if (!want) {
      unexpected++;
      note(`unexpected window ${value}`);
    } else if (want.cnt !== w.cnt || want.sm !== w.sm || want.we !== w.we) {
      wrong++;
      note(`window ${key}: got ${value}, want cnt ${want.cnt} sm ${want.sm}`);
    }
  }
  let duplicates = 0;
  for (const [key, n] of seen) {
    if (n > 1 && expected.has(key)) {
      duplicates += n - 1;
      note(`${n} copies of window ${key}`);
    }
  }
  let missing = 0;
  for (const key of expected.keys()) {
    if (!seen.has(key)) {
      missing++;
      note(`missing window ${key}`);
    }
  }
  return { expectedWindows: expected.size, committed: committed.length, duplicates, missing, unexpected, wrong, examples };
}

/** p-th percentile (0..100) of the values, nearest rank; null when there are none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
