// Worker entry for test/examples/harness.ts: register tsx in this thread (workers do not
// inherit `--import tsx`), import an example module, call its exported function with the
// options from the parent (a ManualClock built from `clockStartMs`), post back the result.
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { file, exportName, options } = workerData;
try {
  const { ManualClock } = await import(new URL("../../examples/lib/run.ts", import.meta.url).href);
  const mod = await import(file);
  const { clockStartMs, ...rest } = options;
  const opts = { ...rest };
  if (clockStartMs !== undefined) opts.clock = new ManualClock(clockStartMs);
  const result = await mod[exportName](opts);
  parentPort.postMessage({ result });
} catch (e) {
  parentPort.postMessage({ error: e instanceof Error ? `${e.stack ?? e.message}` : String(e) });
}
