/**
 * A fixed-size pool of worker threads running one script. Tasks queue until a worker is free;
 * workers start on first use and are unref'd while idle, so a pool never keeps the process
 * alive. A worker that dies fails its task and is replaced on the next one.
 *
 * `DedicatedWorker` is one such thread for work that must always reach the same thread (it
 * holds state between requests); its requests are answered one at a time, in order.
 *
 * The worker side is `serveTasks(handler)`: the handler's result goes back with the transfer
 * list it names (typed-array buffers move, they are not copied).
 */
import { isMainThread, parentPort, type Transferable, Worker } from "node:worker_threads";

interface TaskMessage<Req> {
  readonly id: number;
  readonly request: Req;
}
type ReplyMessage<Res> =
  | { readonly id: number; readonly ok: true; readonly result: Res }
  | { readonly id: number; readonly ok: false; readonly message: string };

/** The thread itself failed (would not start, threw outside a task, exited): not a task's error. */
export class WorkerCrashError extends Error {
  override readonly name = "WorkerCrashError";
}

interface Pending<Res> {
  readonly resolve: (r: Res) => void;
  readonly reject: (e: Error) => void;
}

/**
 * The worker script `name` next to the module at `moduleUrl`, of the same flavour (`.ts` when
 * the engine runs from its sources under tsx, `.js` when built).
 */
export function siblingScript(moduleUrl: string, name: string): URL {
  return new URL(`./${name}${moduleUrl.endsWith(".ts") ? ".ts" : ".js"}`, moduleUrl);
}

/**
 * A TypeScript script (the engine run from its sources through tsx) needs tsx's loader inside
 * the thread too: Node 20 does not carry `--import` hooks into workers, so register it first.
 */
function startWorker(script: URL): Worker {
  if (!script.pathname.endsWith(".ts")) return new Worker(script);
  const tsx = import.meta.resolve("tsx/esm/api");
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(script.href)}); });`;
  return new Worker(boot, { eval: true });
}

class PooledWorker<Req, Res> {
  private readonly worker: Worker;
  private pending: (Pending<Res> & { id: number }) | null = null;
  dead = false;
  /** Why the thread stopped (reported to every later request). */
  private deathCause: Error | null = null;

  /** `onFree` runs after each reply and when the thread dies (then `dead` is set). */
  constructor(script: URL, onFree: (w: PooledWorker<Req, Res>) => void) {
    this.worker = startWorker(script);
    this.worker.unref();
    this.worker.on("message", (m: ReplyMessage<Res>) => {
      const p = this.pending;
      if (!p || p.id !== m.id) return;
      this.pending = null;
      this.worker.unref();
      if (m.ok) p.resolve(m.result);
      else p.reject(new Error(m.message));
      onFree(this);
    });
    const fail = (e: Error): void => {
      if (this.dead) return;
      this.dead = true;
      this.deathCause = e;
      const p = this.pending;
      this.pending = null;
      p?.reject(e);
      onFree(this);
    };
    this.worker.on("error", (e) => fail(new WorkerCrashError(`worker thread failed: ${e.message}`, { cause: e })));
    this.worker.on("exit", (code) => fail(new WorkerCrashError(`worker thread exited with code ${code}`)));
  }

  run(id: number, request: Req, transfer: readonly Transferable[], p: Pending<Res>): void {
    if (this.dead) {
      p.reject(
        new WorkerCrashError(`worker thread is no longer running (${this.deathCause?.message ?? "stopped"})`, { cause: this.deathCause }),
      );
      return;
    }
    this.pending = { ...p, id };
    this.worker.ref(); // a running task keeps the process alive until it answers
    this.worker.postMessage({ id, request } satisfies TaskMessage<Req>, transfer);
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

export class WorkerPool<Req, Res> {
  private readonly idle: PooledWorker<Req, Res>[] = [];
  private readonly all: PooledWorker<Req, Res>[] = [];
  private readonly queue: { request: Req; transfer: readonly Transferable[]; p: Pending<Res> }[] = [];
  private nextId = 0;

  constructor(
    private readonly script: URL,
    readonly size: number,
  ) {}

  run(request: Req, transfer: readonly Transferable[] = []): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      this.queue.push({ request, transfer, p: { resolve, reject } });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let w = this.idle.pop();
      while (w?.dead) w = this.idle.pop();
      if (!w) {
        const alive = this.all.filter((x) => !x.dead);
        this.all.length = 0;
        this.all.push(...alive);
        if (alive.length >= this.size) return; // all busy: the next reply dispatches again
        w = new PooledWorker<Req, Res>(this.script, (done) => {
          if (!done.dead) this.idle.push(done);
          this.dispatch();
        });
        this.all.push(w);
      }
      const task = this.queue.shift()!;
      w.run(this.nextId++, task.request, task.transfer, task.p);
    }
  }

  async close(): Promise<void> {
    const workers = this.all.splice(0);
    this.idle.length = 0;
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** One thread that receives every request sent to it, in order (a thread holding state). */
export class DedicatedWorker<Req, Res> {
  private readonly worker: PooledWorker<Req, Res>;
  private last: Promise<unknown> = Promise.resolve();
  private nextId = 0;

  constructor(script: URL) {
    this.worker = new PooledWorker<Req, Res>(script, () => {});
  }

  /** Send `request` once the previous one was answered; resolves with the reply. */
  call(request: Req, transfer: readonly Transferable[] = []): Promise<Res> {
    const reply = this.last.then(
      () => new Promise<Res>((resolve, reject) => this.worker.run(this.nextId++, request, transfer, { resolve, reject })),
    );
    this.last = reply.catch(() => {});
    return reply;
  }

  get dead(): boolean {
    return this.worker.dead;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/** Worker side: answers each task with `handler(request)` (and its transfer list), sync or async. */
export function serveTasks<Req, Res>(
  handler: (request: Req) => { result: Res; transfer: Transferable[] } | Promise<{ result: Res; transfer: Transferable[] }>,
): void {
  if (isMainThread || !parentPort) throw new Error("serveTasks runs inside a worker thread");
  const port = parentPort;
  port.on("message", ({ id, request }: TaskMessage<Req>) => {
    Promise.resolve()
      .then(() => handler(request))
      .then(({ result, transfer }) => port.postMessage({ id, ok: true, result } satisfies ReplyMessage<Res>, transfer))
      .catch((e: unknown) => port.postMessage({ id, ok: false, message: (e as Error)?.message ?? String(e) } satisfies ReplyMessage<Res>));
  });
}
