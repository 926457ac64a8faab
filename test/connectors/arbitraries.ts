/** fast-check generators shared by the reader property tests (not a test file itself). */
import fc from "fast-check";

const digits = (n: number, max: number) => fc.integer({ min: 0, max }).map((v) => String(v).padStart(n, "0"));

/**
 * ISO-8601-like timestamps around the fast path's shape `yyyy-MM-ddTHH:mm:ss[.f]Z`: out-of-range
 * fields, 0–11 fraction digits and other zone suffixes included, so both the in-place parser and
 * its fallback are exercised.
 */
export const isoTimestamp = fc
  .tuple(
    digits(4, 9999),
    digits(2, 14),
    digits(2, 32),
    digits(2, 25),
    digits(2, 61),
    digits(2, 61),
    fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 11 }),
    fc.constantFrom("Z", "Z", "", "+07:00", "z", " Z"),
  )
  .map(([y, mo, d, h, mi, s, frac, zone]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${frac === "" ? "" : `.${frac}`}${zone}`);
