/**
 * Spark's QuantileSummaries (the Greenwald-Khanna summary behind percentile_approx), step for
 * step: values gather in a head buffer of 50 000, which is sorted and inserted with Spark's
 * deltas, the samples compressed (merging neighbours whose g + g + delta stays under 2εn) once
 * they reach 10 000 and before a query; the query walks the samples for the first whose rank
 * range holds ceil(p × n) within the summary's error. So a group whose values arrive in one
 * order gets the value Spark gives a single partition of them in that order (approx-percentile.ts).
 */
const COMPRESS_THRESHOLD = 10_000;
const HEAD_SIZE = 50_000;

interface Stats {
  readonly value: number;
  readonly g: number;
  readonly delta: number;
}

export class QuantileSummaries {
  private sampled: Stats[] = [];
  private count = 0;
  private head: number[] = [];

  constructor(private readonly relativeError: number) {}

  insert(x: number): void {
    this.head.push(x);
    if (this.head.length >= HEAD_SIZE) {
      this.insertHead();
      if (this.sampled.length >= COMPRESS_THRESHOLD) this.compressSampled();
    }
  }

  /** The head buffer sorted into the samples (Spark's withHeadBufferInserted). */
  private insertHead(): void {
    if (this.head.length === 0) return;
    const sorted = Float64Array.from(this.head).sort();
    const out: Stats[] = [];
    const sampled = this.sampled;
    let count = this.count;
    let s = 0;
    for (let o = 0; o < sorted.length; o++) {
      const x = sorted[o]!;
      while (s < sampled.length && sampled[s]!.value <= x) out.push(sampled[s++]!);
      count++;
      const delta = out.length === 0 || (s === sampled.length && o === sorted.length - 1) ? 0 : Math.floor(2 * this.relativeError * count);
      out.push({ value: x, g: 1, delta });
    }
    while (s < sampled.length) out.push(sampled[s++]!);
    this.sampled = out;
    this.count = count;
    this.head = [];
  }

  /** Spark's compressImmut with merge threshold 2εn: from the last sample back, the first always kept. */
  private compressSampled(): void {
    const samples = this.sampled;
    if (samples.length === 0) return;
    const threshold = 2 * this.relativeError * this.count;
    const res: Stats[] = [];
    let head = samples[samples.length - 1]!;
    for (let i = samples.length - 2; i >= 1; i--) {
      const s = samples[i]!;
      if (s.g + head.g + head.delta < threshold) head = { ...head, g: head.g + s.g };
      else {
        res.push(head);
        head = s;
      }
    }
    res.push(head);
    if (samples[0]!.value <= head.value && samples.length > 1) res.push(samples[0]!);
    this.sampled = res.reverse();
  }

  compress(): void {
    this.insertHead();
    this.compressSampled();
  }

  /** The approximate quantiles (compress first), in the order asked; null for no value. */
  query(percentiles: readonly number[]): number[] | null {
    this.compress();
    const sampled = this.sampled;
    if (sampled.length === 0) return null;
    let maxSpan = Number.NEGATIVE_INFINITY;
    for (const s of sampled) maxSpan = Math.max(maxSpan, s.delta + s.g);
    const targetError = Math.trunc(maxSpan / 2); // a Long division in Spark
    const result = new Array<number>(percentiles.length);
    let index = 0;
    let minRank = sampled[0]!.g;
    const order = percentiles.map((p, pos) => [p, pos] as const).sort((a, b) => a[0] - b[0]);
    for (const [p, pos] of order) {
      if (p <= this.relativeError) result[pos] = sampled[0]!.value;
      else if (p >= 1 - this.relativeError) result[pos] = sampled[sampled.length - 1]!.value;
      else {
        const rank = Math.ceil(p * this.count);
        let i = index;
        let r = minRank;
        let found = false;
        while (i < sampled.length - 1) {
          const s = sampled[i]!;
          if (r + s.delta - targetError <= rank && rank <= r + targetError) {
            found = true;
            break;
          }
          i++;
          r += sampled[i]!.g;
        }
        if (found) {
          index = i;
          minRank = r;
          result[pos] = sampled[i]!.value;
        } else {
          index = sampled.length - 1;
          minRank = 0;
          result[pos] = sampled[sampled.length - 1]!.value;
        }
      }
    }
    return result;
  }
}
