/** A small seeded PRNG (mulberry32) with the helpers the generator needs. Same seed, same cases. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [lo, hi] (both inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  bool(p = 0.5): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  /** Picks by weight: `[[w, value], ...]`. */
  weighted<T>(xs: readonly (readonly [number, T])[]): T {
    const total = xs.reduce((a, [w]) => a + w, 0);
    let r = this.next() * total;
    for (const [w, v] of xs) {
      r -= w;
      if (r < 0) return v;
    }
    return xs[xs.length - 1][1];
  }
  /** A random subset (order kept), at least `min` elements. */
  subset<T>(xs: readonly T[], min = 0): T[] {
    for (;;) {
      const out = xs.filter(() => this.bool());
      if (out.length >= min) return out;
    }
  }
}

/** The seed of case `i` of run `seed`: each case can be regenerated alone. */
export function caseSeed(seed: number, i: number): number {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(i + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}
