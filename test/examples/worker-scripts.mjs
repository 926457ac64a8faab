// Worker entry for runScripts() in test/examples/harness.ts: run example files the way
// `node --import tsx examples/<file>.ts [args]` does — process.argv[1] is the file, so its
// isMain() block runs — one after the other in this thread, each followed by an end marker.
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const failures = [];
for (const { path, args } of workerData.scripts) {
  process.argv.splice(1, process.argv.length - 1, path, ...args);
  try {
    await import(pathToFileURL(path).href);
  } catch (e) {
    failures.push(`${path}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
  process.stdout.write(`\n@@END ${path}\n`);
}
parentPort.postMessage({ result: failures });
