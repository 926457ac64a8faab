// A child process for checkpoint-lock-race.test.ts: takes the lock of the checkpoint in argv[2],
// prints "ok" or "busy <message>", holds the lock until its stdin closes (not a test file itself).
import { RuntimeConfig } from "../../src/common/conf.js";
import { CheckpointStore } from "../../src/runtime/checkpoint-store.js";

const store = await CheckpointStore.open(process.argv[2]!, new RuntimeConfig());
try {
  await store.acquireLock();
  process.stdout.write("ok\n");
} catch (e) {
  process.stdout.write(`busy ${(e as Error).message}\n`);
}
process.stdin.resume();
process.stdin.on("end", () => {
  void store.releaseLock().then(() => process.exit(0));
});
