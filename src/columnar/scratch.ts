/**
 * Scratch typed arrays reused from call to call, so a batch's temporary per-row arrays (hashes,
 * group ids, run marks) do not each allocate a fresh backing store: every such store counts as
 * external memory, and allocating tens of MB of them per batch made V8 collect garbage every
 * batch or two ("external memory pressure"), most of it on the helper threads the decode
 * threads need.
 *
 * Rules for a user: one Scratch per purpose (two live arrays never share one), the array is
 * only valid until the same Scratch is asked again, its contents are stale (write before you
 * read), and it never escapes: not into a vector, the state, the output or another thread.
 * Each thread has its own module instances, so worker threads never share one.
 */
export class ScratchInt32 {
  private buf = new Int32Array(0);
  /** An Int32Array of exactly n elements, stale contents. */
  get(n: number): Int32Array {
    if (this.buf.length < n) this.buf = new Int32Array(grown(this.buf.length, n));
    return this.buf.subarray(0, n);
  }
}

export class ScratchUint8 {
  private buf = new Uint8Array(0);
  /** A Uint8Array of exactly n elements, stale contents. */
  get(n: number): Uint8Array {
    if (this.buf.length < n) this.buf = new Uint8Array(grown(this.buf.length, n));
    return this.buf.subarray(0, n);
  }
}

export class ScratchFloat64 {
  private buf = new Float64Array(0);
  /** A Float64Array of exactly n elements, stale contents. */
  get(n: number): Float64Array {
    if (this.buf.length < n) this.buf = new Float64Array(grown(this.buf.length, n));
    return this.buf.subarray(0, n);
  }
}

/** Room for n, with a quarter to spare: batches of a stream vary a little in size. */
function grown(old: number, n: number): number {
  return Math.max(n, old + (old >> 2));
}
