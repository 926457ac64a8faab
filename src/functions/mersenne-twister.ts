/**
 * MT19937, the Mersenne Twister, seeded as Apache Commons Math's `MersenneTwister(long)` seeds it
 * (the long split into two ints, then the reference `init_by_array`): the generator Spark's
 * `uuid(seed)` draws from (its RandomUUIDGenerator), so a seeded uuid gives Spark's values on
 * a single-partition input. Written from the published algorithm (Matsumoto and Nishimura, 1998).
 */
const N = 624;
const M = 397;

export class MersenneTwister {
  private readonly mt = new Uint32Array(N);
  private index = N;

  constructor(seed: bigint) {
    const s = BigInt.asUintN(64, seed);
    this.initByArray([Number(s >> 32n), Number(s & 0xffffffffn)]);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    this.index = N;
  }

  private twist(): void {
    const mt = this.mt;
    for (let k = 0; k < N; k++) {
      const y = (mt[k]! & 0x80000000) | (mt[(k + 1) % N]! & 0x7fffffff);
      mt[k] = mt[(k + M) % N]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
    }
    this.index = 0;
  }

  /** The next 32 random bits, unsigned. */
  nextUint32(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** The next 64 bits as a signed long, high word first (Commons Math's nextLong). */
  nextLong(): bigint {
    const high = BigInt(this.nextUint32());
    const low = BigInt(this.nextUint32());
    return BigInt.asIntN(64, (high << 32n) | low);
  }
}
