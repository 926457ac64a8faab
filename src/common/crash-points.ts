/**
 * Named crash points for the crash-injection tests: with the conf
 * `arus.test.crashPoint = "<point>:<batchId>"` the process kills itself (SIGKILL, no cleanup)
 * when it reaches that point in that batch. Points: beforeOffsetLog, afterOffsetLog,
 * beforeSink, insideSink (file sink: data files written, manifest not), afterSink,
 * beforeCommitLog, afterCommitLog, insideStateSnapshot. Unset, every call is a no-op.
 */
let armed: { point: string; batchId: number } | null = null;

export function armCrashPoint(spec: string | undefined): void {
  if (!spec) {
    armed = null;
    return;
  }
  const m = /^([A-Za-z]+):(\d+)$/.exec(spec.trim());
  if (!m) throw new Error(`arus.test.crashPoint must look like "afterOffsetLog:3", got "${spec}"`);
  armed = { point: m[1]!, batchId: Number(m[2]) };
}

export function crashPoint(point: string, batchId: number): void {
  if (armed && armed.point === point && armed.batchId === batchId) process.kill(process.pid, "SIGKILL");
}
