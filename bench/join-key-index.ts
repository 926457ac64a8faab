/**
 * The join table's key index (src/state/join/key-index.ts) on q8's key shape: (bigint id,
 * window) texts, as `fastKey` writes them, for `--keys` stored keys (50 000 and 400 000 by
 * default: a state thread's side at the 1 M and full sizes is in between). Each round probes
 * 200 000 keys in a random order with fresh copies of their texts (as a batch's rows bring
 * them), then 200 000 hashes of no stored key. Through the built package:
 *
 *   npm run build && node --import tsx bench/join-key-index.ts [--keys 50000,400000] [--rounds 5]
 *
 * Prints the median nanoseconds per `find` that hits and per `find` that misses.
 */
import path from "node:path";

const dist = path.resolve(import.meta.dirname, "../dist");
const { KeyIndex } = (await import(path.join(dist, "state/join/key-index.js"))) as typeof import("../src/state/join/key-index.js");
const { keyTextHash } = (await import(path.join(dist, "common/hash.js"))) as typeof import("../src/common/hash.js");

const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const sizes = (arg("--keys") ?? "50000,400000").split(",").map(Number);
const rounds = Number(arg("--rounds") ?? 5) || 5;
const PROBES = 200_000;

const keyText = (k: number): string => {
  const start = 1_768_521_920_000_000 + (k % 50) * 10_000_000;
  return `[${1000 + k * 7},{"start":${start},"end":${start + 10_000_000}}]`;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

for (const n of sizes) {
  const texts: string[] = [];
  const hashes = new Int32Array(n);
  const index = new KeyIndex();
  for (let k = 0; k < n; k++) {
    texts.push(keyText(k));
    hashes[k] = keyTextHash(texts[k]!);
    index.add(k, hashes[k]!);
  }
  let seed = 12345;
  const order = Int32Array.from({ length: PROBES }, () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed % n;
  });
  const probes = Array.from(order, keyText);
  const hit: number[] = [];
  const miss: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    let found = 0;
    for (let i = 0; i < PROBES; i++) if (index.find(hashes[order[i]!]!, probes[i]!, texts) >= 0) found++;
    hit.push(((performance.now() - t) * 1e6) / PROBES);
    t = performance.now();
    for (let i = 0; i < PROBES; i++) if (index.find(Math.imul(i, 0x9e3779b1), "(none)", texts) >= 0) found = -1;
    miss.push(((performance.now() - t) * 1e6) / PROBES);
    if (found !== PROBES) throw new Error(`join-key-index bench: ${found} of ${PROBES} stored keys found`);
  }
  console.log(`${n} keys: hit ${median(hit).toFixed(0)} ns, miss ${median(miss).toFixed(0)} ns (median of ${rounds})`);
}
