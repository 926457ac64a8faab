/**
 * Runs an example in a worker thread so that everything it prints — the console sink writes
 * straight to process.stdout — can be captured without touching this process's stdout (which
 * node's test runner uses to report results).
 */
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

export interface ExampleRun<R> {
  stdout: string;
  stderr: string;
  result: R;
}

/** Run `examples/<file>`'s `exportName(options)`; `clockStartMs` becomes a ManualClock. */
export function runExample<R>(
  file: string,
  exportName: string,
  options: Record<string, unknown>,
  timeoutMs = 30_000,
): Promise<ExampleRun<R>> {
  const workerData = { file: new URL(`../../examples/${file}`, import.meta.url).href, exportName, options };
  return runWorker<R>("./worker-boot.mjs", workerData, `example ${file}`, timeoutMs);
}

/**
 * Run example files as scripts (their isMain block, with `args` as the command line), one
 * after the other in one worker; returns what each printed and the failures.
 */
export async function runScripts(
  scripts: [file: string, args: string[]][],
  timeoutMs = 60_000,
): Promise<{ outputs: Map<string, string>; failures: string[]; stderr: string }> {
  const paths = scripts.map(([file, args]) => ({ path: fileURLToPath(new URL(`../../examples/${file}`, import.meta.url)), args }));
  const run = await runWorker<string[]>("./worker-scripts.mjs", { scripts: paths }, "scripts", timeoutMs);
  const outputs = new Map<string, string>();
  let rest = run.stdout;
  scripts.forEach(([file], i) => {
    const marker = `\n@@END ${paths[i]!.path}\n`;
    const at = rest.indexOf(marker);
    outputs.set(file, at < 0 ? rest : rest.slice(0, at));
    rest = at < 0 ? "" : rest.slice(at + marker.length);
  });
  return { outputs, failures: run.result, stderr: run.stderr };
}

async function runWorker<R>(boot: string, workerData: unknown, label: string, timeoutMs: number): Promise<ExampleRun<R>> {
  const worker = new Worker(new URL(boot, import.meta.url), { workerData, stdout: true, stderr: true });
  let stdout = "";
  let stderr = "";
  worker.stdout.setEncoding("utf8");
  worker.stderr.setEncoding("utf8");
  worker.stdout.on("data", (d: string) => (stdout += d));
  worker.stderr.on("data", (d: string) => (stderr += d));
  const streamsDone = Promise.all([new Promise((r) => worker.stdout.on("end", r)), new Promise((r) => worker.stderr.on("end", r))]);
  let message: { result?: R; error?: string } | undefined;
  worker.on("message", (m) => (message = m));
  const timer = setTimeout(() => void worker.terminate(), timeoutMs);
  try {
    await new Promise<void>((resolve, reject) => {
      worker.on("error", reject);
      worker.on("exit", () => resolve());
    });
    await streamsDone;
  } finally {
    clearTimeout(timer);
  }
  if (!message) throw new Error(`${label} posted no result (timed out after ${timeoutMs} ms?)\nstdout:\n${stdout}\nstderr:\n${stderr}`);
  if (message.error !== undefined) throw new Error(`${label} failed: ${message.error}\nstdout:\n${stdout}`);
  return { stdout, stderr, result: message.result as R };
}

export interface ConsoleBatch {
  batchId: number;
  columns: string[];
  rows: string[][];
}

function cells(line: string): string[] {
  return line
    .slice(1, -1)
    .split("|")
    .map((c) => c.trim());
}

/** The micro-batches the console sink printed: header, then show()'s table. */
export function parseConsoleBatches(text: string): ConsoleBatch[] {
  const lines = text.split("\n");
  const out: ConsoleBatch[] = [];
  const dashes = "-".repeat(43);
  for (let i = 0; i + 3 < lines.length; i++) {
    const m = /^Batch: (\d+)$/.exec(lines[i + 1]!);
    if (lines[i] !== dashes || !m || lines[i + 2] !== dashes) continue;
    const table: string[] = [];
    let j = i + 3;
    while (j < lines.length && /^[+|]/.test(lines[j]!)) table.push(lines[j++]!);
    // +---+ / |header| / +---+ / rows... / +---+
    const columns = table[1] ? cells(table[1]) : [];
    const rows = table
      .slice(3, -1)
      .filter((l) => l.startsWith("|"))
      .map(cells);
    out.push({ batchId: Number(m[1]), columns, rows });
    i = j - 1;
  }
  return out;
}
