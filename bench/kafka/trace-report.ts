/**
 * Per-batch summary of a bench/kafka/trace.mjs timeline: batches are cut at each write of
 * `offsets/N`; for every kind of event, how many per batch and how many ms per batch (events
 * on the thread pool overlap, so their sum can exceed the batch). With a batch index, that
 * batch's and the next one's events in order.
 *
 *   node --import tsx bench/kafka/trace-report.ts TRACE.txt [batch]
 */
import { readFileSync } from "node:fs";

const [file, show] = process.argv.slice(2);
if (!file) throw new Error("usage: trace-report.ts TRACE.txt [batch]");
const ev = readFileSync(file, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => {
    const [t, d, kind, ...rest] = l.split(" ");
    return { t: Number(t), d: Number(d), kind: kind!, name: rest.join(" ") };
  })
  .sort((a, b) => a.t - b.t);
const starts = ev.flatMap((e, i) => (e.kind === "write" && /offsets\/\d+/.test(e.name) ? [i] : []));
const per = new Map<string, { n: number; ms: number }>();
let span = 0;
for (let b = 0; b + 1 < starts.length; b++) {
  span += ev[starts[b + 1]!]!.t - ev[starts[b]!]!.t;
  for (const e of ev.slice(starts[b], starts[b + 1])) {
    const k = `${e.kind} ${e.name.replace(/\d+/g, "N")}`;
    const a = per.get(k) ?? { n: 0, ms: 0 };
    a.n++;
    a.ms += e.d;
    per.set(k, a);
  }
}
const n = Math.max(1, starts.length - 1);
console.log(`${starts.length} batches, ${(span / n).toFixed(2)} ms from one offsets/N write to the next`);
for (const [k, a] of [...per].sort((x, y) => y[1].ms - x[1].ms)) {
  if (a.ms / n >= 0.01) console.log(`${k.padEnd(48)} ${(a.n / n).toFixed(2)}/batch ${(a.ms / n).toFixed(2).padStart(8)} ms/batch`);
}
if (show !== undefined) {
  const i0 = starts[Number(show)]!;
  for (const e of ev.slice(i0, starts[Number(show) + 2])) {
    console.log(`${(e.t - ev[i0]!.t).toFixed(2).padStart(9)} ${e.d.toFixed(2).padStart(8)} ${e.kind} ${e.name}`);
  }
}
