import { CrashDriver, connectPg, closePg, randomKills, rng } from "./driver.js";
const pg = await connectPg();
console.log("pg", "skip" in pg ? pg.skip : pg.url);
const env = "skip" in pg ? null : pg;
const d = new CrashDriver("/tmp/arus-try", { files: 20, rows: 20 }, env);
let t = performance.now();
const ref = await d.reference(["file", "pg"]);
console.log("ref", ref.bootToReadyMs, ref.readyToDoneMs, performance.now() - t);
const r = rng(1);
for (let i = 0; i < 3; i++) {
  t = performance.now();
  const res = await d.episode({ name: `rand${i}`, sinks: ["file", "pg"], killPlan: randomKills(r, ref), flush: true, exactBeforeFlush: false }, ref);
  console.log(res);
}
if (env) await closePg(env);
process.exit(0);
