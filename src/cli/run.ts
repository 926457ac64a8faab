/**
 * `arus run <file>`: import a pipeline file; TypeScript files go through tsx's loader.
 *
 * The pipeline runs in a node process started with `--initial-old-space-size` (`--node-heap`,
 * default 128 MB): arus keeps its data in typed arrays, which V8 counts against an old-space
 * limit it derives from the small JavaScript heap, so with node's defaults a busy query spends
 * much of its time in full mark-compacts that free nothing (docs/benchmarks.md, "Node's heap").
 * A library cannot set that flag for a running process, so this command starts the pipeline's
 * process with it — once: not when node already has the flag (NODE_OPTIONS cannot carry it).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

const HEAP_FLAG = "--initial-old-space-size";
/** Set in the process this command starts, so that it runs the pipeline instead of starting another. */
const CHILD_MARK = "ARUS_RUN_HEAP_SET";

export interface RunOptions {
  /** `--initial-old-space-size` in MB for the pipeline's process; 0 leaves node's default. */
  readonly nodeHeap?: number;
}

export async function runFile(file: string, args: string[], opts: RunOptions = {}): Promise<void> {
  const heapMb = opts.nodeHeap ?? 128;
  if (!Number.isInteger(heapMb) || heapMb < 0)
    throw new Error(`--node-heap must be a whole number of MB (0: node's default), got ${heapMb}`);
  if (heapMb > 0 && !heapFlagGiven()) return runWithHeap(heapMb);
  const abs = path.resolve(file);
  process.argv = [process.argv[0]!, abs, ...args];
  if (/\.[cm]?ts$/.test(abs)) {
    try {
      const tsx = (await import("tsx/esm/api")) as { register: () => void };
      tsx.register();
    } catch {
      throw new Error(`${file} is TypeScript: install tsx (npm i -D tsx) or compile it to JavaScript first.`);
    }
  }
  await import(pathToFileURL(abs).href);
}

function heapFlagGiven(): boolean {
  if (process.env[CHILD_MARK] === "1") return true;
  return process.execArgv.some((a) => a.startsWith(HEAP_FLAG));
}

/** This same command line again, in a node process with the heap flag; ends as that process ends. */
function runWithHeap(heapMb: number): Promise<void> {
  const child = spawn(process.execPath, [`${HEAP_FLAG}=${heapMb}`, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, [CHILD_MARK]: "1" },
  });
  // Ctrl-C reaches the whole process group anyway; a SIGTERM sent to this process alone is passed on.
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward("SIGINT");
  const onTerm = forward("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  return new Promise((_, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      if (signal) process.kill(process.pid, signal);
      else process.exit(code ?? 1);
    });
  });
}
