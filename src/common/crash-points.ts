/**
 * Named crash points for the crash-injection tests: with the conf
 * `arus.test.crashPoint = "<point>:<batchId>"` the process kills itself (SIGKILL, no cleanup)
 * when it reaches that point in that batch. Points: beforeOffsetLog, afterOffsetLog,
 * beforeSink, insideSink (file sink: data files written, manifest not; exactly-once Kafka sink:
 * records sent in the open transaction, not committed), afterSink,
 * beforeCommitLog, afterCommitLog, insideStateSnapshot, afterStateCommit (an aggregation's
 * state committed, on whichever thread holds it; transformWithState's stores all committed; a
 * stream-stream join's two sides committed), insideJoinCommit (a stream-stream join: its left
 * side's stores committed, its right side's not),
 * insideHandler / insideTimerHandler (transformWithState: a handleInputRows / handleExpiredTimer
 * call returned, its state changes in the open store, uncommitted), afterSendOffsets (group
 * mode: the batch's records and offsets in the open transaction, not committed), insideRestore
 * (group mode: a task's snapshot loaded and its changelog tail replayed in part or whole, before
 * the batch with that id; the task not yet running), beforePlan (group mode with foreachBatch:
 * the batch's rows computed, its plan transaction not begun, the user's function not called).
 * Unset, every call is a no-op.
 * A spec ending in ":pause" stops the process there (SIGSTOP) instead of killing it. Worker threads
 * have their own module state: the state threads arm the spec they are sent (`armedCrashPoint`).
 */
let armed: { point: string; batchId: number; pause: boolean } | null = null;

/** The armed spec, to hand to a worker thread; undefined when none. */
export function armedCrashPoint(): string | undefined {
  return armed ? `${armed.point}:${armed.batchId}${armed.pause ? ":pause" : ""}` : undefined;
}

export function armCrashPoint(spec: string | undefined): void {
  if (!spec) {
    armed = null;
    return;
  }
  const m = /^([A-Za-z]+):(\d+)(:pause)?$/.exec(spec.trim());
  if (!m) throw new Error(`arus.test.crashPoint must look like "afterOffsetLog:3" (or "insideSink:3:pause"), got "${spec}"`);
  armed = { point: m[1]!, batchId: Number(m[2]), pause: m[3] !== undefined };
}

export function crashPoint(point: string, batchId: number): void {
  if (!armed || armed.point !== point || armed.batchId !== batchId) return;
  if (!armed.pause) process.kill(process.pid, "SIGKILL");
  // ":pause": the process stops itself (SIGSTOP) once, as a worker stalled by a GC pause or a
  // frozen VM; whoever sends SIGCONT wakes it there (the zombie tests of group mode).
  armed = null;
  process.kill(process.pid, "SIGSTOP");
}
