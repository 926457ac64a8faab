/**
 * A fingerprint of the machine's speed today, to tell a slower VM from a slower engine when
 * figures from different days disagree (bench/RESULTS.md): a dependent integer loop (the CPU's
 * clock), a large memory copy (bandwidth) and many small objects (allocation and GC), each the
 * best of three, once on one thread and once on two threads at a time.
 *
 *   node bench/machine.mjs
 */
import { Worker } from "node:worker_threads";

function measure() {
  const best = (f) => Math.min(f(), f(), f());
  const loop = best(() => {
    const t0 = performance.now();
    let h = 0;
    for (let i = 0; i < 1e8; i++) h = Math.imul(h ^ i, 0x01000193);
    if (h === 0.5) throw new Error("unreachable");
    return ((performance.now() - t0) * 1e6) / 1e8;
  });
  const a = Buffer.alloc(256 << 20, 1);
  const b = Buffer.alloc(256 << 20);
  const copy = best(() => {
    const t0 = performance.now();
    for (let i = 0; i < 4; i++) a.copy(b);
    return (4 * 256) / 1024 / ((performance.now() - t0) / 1000);
  });
  const objects = best(() => {
    const t0 = performance.now();
    const xs = [];
    for (let i = 0; i < 1e6; i++) xs.push({ a: i, b: `x${i}` });
    return ((performance.now() - t0) / xs.length) * 1e6;
  });
  return { loopNsPerStep: +loop.toFixed(2), copyGBps: +copy.toFixed(2), objectNs: +objects.toFixed(0) };
}

const SELF = new URL(import.meta.url);
if (process.argv[2] === "--worker") {
  process.stdout.write(`${JSON.stringify(measure())}\n`);
} else {
  console.log("one thread ", JSON.stringify(measure()));
  const both = await Promise.all(
    [0, 1].map(
      () =>
        new Promise((resolve, reject) => {
          const w = new Worker(SELF, { argv: ["--worker"], stdout: true });
          let out = "";
          w.stdout.on("data", (d) => {
            out += d;
          });
          w.on("error", reject);
          w.on("exit", () => resolve(out.trim()));
        }),
    ),
  );
  console.log("two threads", both.join(" "));
}
