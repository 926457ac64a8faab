/**
 * Vectors that keep their rows in a compact payload (UTF-8 bytes + offsets, binary bytes +
 * offsets) and make the ordinary per-row `values` array only when something reads it, once.
 * Correctness never depends on a consumer knowing the payload: `values` is an enumerable
 * accessor (so `{ ...v }` copies the materialized rows), the payload a non-enumerable symbol (so
 * a spread that changes `values` or `validity` can never leave a stale payload behind). The
 * kernels that gain from the payload ask `payloadOf(v)`.
 */
import type { DataType } from "../types/datatypes.js";
import type { Vector } from "./vector.js";

export interface LazyKind<P> {
  /** A vector of this kind over `payload`. */
  make(type: DataType, payload: P, validity: Uint8Array | null, length: number): Vector;
  /** The payload of a vector of this kind; undefined for every other vector. */
  payloadOf(v: Vector): P | undefined;
}

/**
 * One kind of lazily materialized vector. Every vector of a kind shares one getter function
 * and one property layout, so V8 gives them one shape.
 */
export function lazyKind<P>(
  name: string,
  materialize: (payload: P, validity: Uint8Array | null, length: number) => unknown[],
): LazyKind<P> {
  const PAYLOAD = Symbol(`arus.${name}`);
  const VALUES = Symbol(`arus.${name}.values`);
  interface Holder {
    readonly length: number;
    readonly validity: Uint8Array | null;
    readonly [PAYLOAD]: P;
    [VALUES]: unknown[] | null;
  }
  function values(this: Holder): unknown[] {
    let out = this[VALUES];
    if (out === null) {
      out = materialize(this[PAYLOAD], this.validity, this.length);
      this[VALUES] = out;
    }
    return out;
  }
  const accessor: PropertyDescriptor = { get: values, enumerable: true };
  return {
    make(type, payload, validity, length) {
      const v = { type, length, validity };
      Object.defineProperty(v, "values", accessor);
      Object.defineProperty(v, PAYLOAD, { value: payload });
      Object.defineProperty(v, VALUES, { value: null, writable: true });
      return v as unknown as Vector;
    },
    payloadOf: (v) => (v as unknown as Partial<Holder>)[PAYLOAD],
  };
}
