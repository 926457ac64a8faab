/**
 * Summarize a V8 CPU profile (`node --cpu-prof`): self time and inclusive ("total") time per
 * function, with file:line, top N. Used for the hot spots in bench/RESULTS.md.
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/arus/run.ts --data ... --queries q7 --no-checksum
 *   node --import tsx bench/profile.ts /tmp/prof/CPU.*.cpuprofile [--top 25] [--filter src/]
 */
import { readFileSync } from "node:fs";
import path from "node:path";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotSpot {
  where: string;
  selfMs: number;
  totalMs: number;
  selfPct: number;
  totalPct: number;
}

const root = path.resolve(import.meta.dirname, "..");

function label(cf: CallFrame): string {
  let file = cf.url.replace(/^file:\/\//, "");
  if (file.startsWith(root)) file = path.relative(root, file);
  const fn = cf.functionName || "(anonymous)";
  return file ? `${fn} ${file}:${cf.lineNumber + 1}` : fn;
}

export function summarize(profile: Profile, top = 25, filter?: string): { totalMs: number; self: HotSpot[]; total: HotSpot[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  let all = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    selfUs.set(profile.samples[i]!, (selfUs.get(profile.samples[i]!) ?? 0) + dt);
    all += dt;
  }
  const selfBy = new Map<string, number>();
  const totalBy = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const l = label(node.callFrame);
    selfBy.set(l, (selfBy.get(l) ?? 0) + us);
    // Inclusive: count each distinct label once per stack.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const ll = label(byId.get(cur)!.callFrame);
      if (seen.has(ll)) continue;
      seen.add(ll);
      totalBy.set(ll, (totalBy.get(ll) ?? 0) + us);
    }
  }
  const mk = (m: Map<string, number>, other: Map<string, number>, selfFirst: boolean): HotSpot[] =>
    [...m.entries()]
      .filter(([l]) => !filter || l.includes(filter))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([where, us]) => {
        const o = other.get(where) ?? 0;
        const [s, t] = selfFirst ? [us, o] : [o, us];
        return { where, selfMs: s / 1000, totalMs: t / 1000, selfPct: (100 * s) / all, totalPct: (100 * t) / all };
      });
  return { totalMs: all / 1000, self: mk(selfBy, totalBy, true), total: mk(totalBy, selfBy, false) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const argv = process.argv.slice(2);
  const opt = (k: string) => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const top = Number(opt("--top") ?? 25);
  const filter = opt("--filter");
  const files = argv.filter((a, i) => !a.startsWith("--") && !["--top", "--filter"].includes(argv[i - 1] ?? ""));
  for (const f of files) {
    const s = summarize(JSON.parse(readFileSync(f, "utf8")) as Profile, top, filter);
    process.stdout.write(`# ${f}: ${s.totalMs.toFixed(0)} ms sampled\n\n## self time\n`);
    for (const h of s.self)
      process.stdout.write(
        `${h.selfPct.toFixed(1).padStart(5)}%  ${h.selfMs.toFixed(0).padStart(6)} ms  (total ${h.totalPct.toFixed(1)}%)  ${h.where}\n`,
      );
    process.stdout.write("\n## inclusive time\n");
    for (const h of s.total)
      process.stdout.write(
        `${h.totalPct.toFixed(1).padStart(5)}%  ${h.totalMs.toFixed(0).padStart(6)} ms  (self ${h.selfPct.toFixed(1)}%)  ${h.where}\n`,
      );
    process.stdout.write("\n");
  }
}
