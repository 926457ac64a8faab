/**
 * arus's own log: one small logger for the warnings arus prints (a batch falling behind its
 * trigger, a listener that threw, a source file that could not be cleaned up). Its level is
 * process-wide, like Spark's log4j root level, and set by `sparkContext.setLogLevel(level)`
 * with Spark's level names; the default is WARN (what PySpark's shell sets). Lines go to
 * stderr as `WARN <Source>: <message>`.
 */
import { IllegalArgumentException } from "./errors.js";

export const LOG_LEVELS = ["ALL", "TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL", "OFF"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

let threshold: LogLevel = "WARN";
let write: (line: string) => void = (line) => {
  process.stderr.write(line);
};

/** Spark's SparkContext.setLogLevel: any case; anything else is an error listing the valid names. */
export function setLogLevel(level: string): void {
  const up = String(level).toUpperCase();
  if (!(LOG_LEVELS as readonly string[]).includes(up)) {
    throw new IllegalArgumentException(`Supplied level ${level} did not match one of: ${[...LOG_LEVELS].sort().join(",")}`);
  }
  threshold = up as LogLevel;
}

export function logLevel(): LogLevel {
  return threshold;
}

/** Would a message at `level` be printed now? */
export function isLogEnabled(level: Exclude<LogLevel, "ALL" | "OFF">): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

function log(level: Exclude<LogLevel, "ALL" | "OFF">, source: string, message: string): void {
  if (isLogEnabled(level)) write(`${level} ${source}: ${message}\n`);
}

export const logWarning = (source: string, message: string): void => log("WARN", source, message);
export const logInfo = (source: string, message: string): void => log("INFO", source, message);

/** @internal Tests capture the log here; returns the previous writer. */
export function setLogWriter(w: (line: string) => void): (line: string) => void {
  const prev = write;
  write = w;
  return prev;
}
