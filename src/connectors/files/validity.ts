/** Validity tracking shared by the column builders (builders.ts, utf8-builder.ts). */
/** A validity map that is allocated only once a null shows up. */
export class Validity {
  bits: Uint8Array | null = null;
  mark(i: number, valid: boolean, cap: number): void {
    if (valid) {
      if (this.bits !== null) {
        this.ensure(cap);
        this.bits[i] = 1;
      }
      return;
    }
    if (this.bits === null) {
      this.bits = new Uint8Array(Math.max(cap, 16));
      this.bits.fill(1, 0, i);
    }
    this.ensure(cap);
    this.bits[i] = 0;
  }
  /** Rows [at, at + k) from a validity map (null: all valid). */
  markMany(at: number, valid: Uint8Array | null, k: number, cap: number): void {
    if (valid === null) {
      if (this.bits !== null) {
        this.ensure(cap);
        this.bits.fill(1, at, at + k);
      }
      return;
    }
    if (this.bits === null) {
      this.bits = new Uint8Array(Math.max(cap, 16));
      this.bits.fill(1, 0, at);
    }
    this.ensure(cap);
    this.bits.set(valid.subarray(0, k), at);
  }
  private ensure(cap: number): void {
    if (this.bits!.length < cap) {
      const g = new Uint8Array(Math.max(cap, this.bits!.length * 2));
      g.set(this.bits!);
      this.bits = g;
    }
  }
  take(n: number): Uint8Array | null {
    const b = this.bits;
    this.bits = null;
    return b === null ? null : b.slice(0, n);
  }
}
