/**
 * Kernels behind `window()` and `session_window()` after the analyzer's rewrite
 * (src/analyzer/time-windows.ts): `__time_window(ts, window, slide, start, i)` is the i-th
 * candidate window of each row (newest first, floor-aligned as Spark computes it), and
 * `__session_window(ts, gap)` is the single-event session [ts, ts + gap).
 */
import { makeVector } from "../columnar/vector.js";
import { parseInterval } from "../common/interval.js";
import { IntervalType, WindowStructType } from "../types/datatypes.js";
import { andValidity, mapRows, nums } from "./kernel-util.js";
import { register, type ScalarFunction } from "./registry.js";

/**
 * Start and end of each row's i-th window (`__time_window`). Its own function: the kernel's loop,
 * optimized on stack, deopted on leaving it into code that had not run yet, call after call.
 */
function windowBounds(
  t: ArrayLike<number>,
  n: number,
  w: number,
  s: number,
  st: number,
  i: number,
  start: Float64Array,
  end: Float64Array,
): void {
  // Streams come roughly in time order: a row inside the previous row's slide [lo, hi) has
  // its start (exact for the integer micros timestamps are) without the division.
  let lo = Number.NaN;
  let hi = Number.NaN;
  for (let r = 0; r < n; r++) {
    const x = t[r]!;
    let last = lo;
    if (!(x >= lo && x < hi)) {
      const rem = (x - st) % s;
      last = x - (rem < 0 ? rem + s : rem);
      lo = last;
      hi = last + s;
    }
    start[r] = last - i * s;
    end[r] = start[r]! + w;
  }
}

const timeWindow: ScalarFunction = {
  kind: "scalar",
  name: "__time_window",
  resolve: (args) => ({ args, type: WindowStructType }),
  // window, slide, start and i are literals (src/analyzer/time-windows.ts)
  rowZeroArgsFrom: 1,
  kernel(args, n) {
    const ts = args[0]!;
    const [w, s, st, i] = args.slice(1).map((a) => nums(a)[0]!) as [number, number, number, number];
    const start = new Float64Array(n);
    const end = new Float64Array(n);
    windowBounds(nums(ts), n, w, s, st, i, start, end);
    const validity = ts.validity;
    return makeVector(WindowStructType, [], validity, n, [
      makeVector(WindowStructType.fields[0]!.type, start, null, n),
      makeVector(WindowStructType.fields[1]!.type, end, null, n),
    ]);
  },
};

const sessionWindow: ScalarFunction = {
  kind: "scalar",
  name: "__session_window",
  resolve: (args) => ({ args, type: WindowStructType }),
  kernel(args, n) {
    const [ts, gap] = args as [(typeof args)[0] & object, (typeof args)[0] & object];
    const t = nums(ts);
    const g = nums(gap);
    const end = new Float64Array(n);
    for (let r = 0; r < n; r++) end[r] = t[r]! + g[r]!;
    const validity = andValidity(ts.validity, gap.validity, n);
    return makeVector(WindowStructType, [], validity, n, [
      makeVector(WindowStructType.fields[0]!.type, Float64Array.from(t as Float64Array), null, n),
      makeVector(WindowStructType.fields[1]!.type, end, null, n),
    ]);
  },
};

/** A dynamic gap given as text ("5 seconds") per row. */
const intervalMicros: ScalarFunction = {
  kind: "scalar",
  name: "__interval_micros",
  resolve: (args) => ({ args, type: IntervalType }),
  kernel: (args, n) =>
    mapRows(IntervalType, args, n, (s) => {
      const iv = parseInterval(s as string);
      return iv.months !== 0 ? null : iv.micros;
    }),
};

register(timeWindow, sessionWindow, intervalMicros);
