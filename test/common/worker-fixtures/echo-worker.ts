// Worker for test/common/worker-pool.test.ts: doubles a Float64Array (moved back), fails on request.
import { serveTasks } from "../../../src/common/worker-pool.js";

serveTasks<{ values: Float64Array; fail?: boolean; exit?: boolean }, Float64Array>(async (r) => {
  if (r.exit) process.exit(3);
  if (r.fail) throw new Error("task refused");
  await new Promise((res) => setTimeout(res, 5));
  const out = r.values.map((v) => v * 2);
  return { result: out, transfer: [out.buffer as ArrayBuffer] };
});
