/** Shared assertions for the SQL parser tests. */
import assert from "node:assert/strict";
import { ParseException } from "../../src/common/errors.js";

/** Deep copy without `exprId`s, so trees built in tests compare equal to parsed ones. */
export function strip(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(strip);
  if (x instanceof Uint8Array) return [...x];
  if (x !== null && typeof x === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) if (k !== "exprId") out[k] = strip(v);
    return out;
  }
  return x;
}

export function same(actual: unknown, expected: unknown): void {
  assert.deepEqual(strip(actual), strip(expected));
}

/** Expect a ParseException whose message contains `fragment` and which points at `position`. */
export function parseFails(fn: () => unknown, fragment: string, position?: number): ParseException {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof ParseException, `expected ParseException, got ${String(caught)}`);
  assert.ok(caught.message.includes(fragment), `message ${JSON.stringify(caught.message)} lacks ${JSON.stringify(fragment)}`);
  if (position !== undefined) {
    assert.equal(caught.position, position, `position in ${JSON.stringify(caught.message)}`);
    assert.ok(caught.message.includes(`(line 1, pos ${position})`));
  }
  return caught;
}
