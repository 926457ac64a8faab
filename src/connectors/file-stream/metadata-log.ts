/**
 * The file stream logs (Spark's CompactibleFileStreamLog) over the metadata-log file layout of
 * common/metadata-log-file.ts (shared with the checkpoint's logs): one file per batch named by
 * its decimal id (`N`, or `N.compact` for a compaction batch), content `v1` then one JSON object
 * per line, no trailing newline. Names that are not ids are ignored, so temp files and `.crc`
 * sidecars never count.
 */
import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ArusError, IllegalArgumentException } from "../../common/errors.js";
import { type LogFileName, parseLogFileName, splitVersionLine } from "../../common/metadata-log-file.js";

export const LOG_VERSION = 1;

export type { LogFileName };

export function serializeLog(entries: readonly unknown[]): string {
  return [`v${LOG_VERSION}`, ...entries.map((e) => JSON.stringify(e))].join("\n");
}

export function parseLog<T>(text: string, where: string): T[] {
  const { version, body } = splitVersionLine(text);
  if (version === null)
    throw new IllegalArgumentException(`Log file was malformed: failed to detect the log file version line in ${where}.`);
  if (version > LOG_VERSION) {
    throw new IllegalArgumentException(
      `UnsupportedLogVersion: maximum supported log version is v${LOG_VERSION}, but encountered v${version} in ${where}. The log file was produced by a newer version.`,
    );
  }
  const out: T[] = [];
  // line numbers count the version line as line 1
  const lines = body === null ? [] : body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim() === "") continue;
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch (e) {
      throw logCorrupt(where, `line ${i + 2} is not JSON (${(e as Error).message})`);
    }
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw logCorrupt(where, `line ${i + 2} is not a JSON object`);
    out.push(v as T);
  }
  return out;
}

/** A metadata-log file that cannot be used, named with what is wrong. */
export function logCorrupt(file: string, problem: string): ArusError {
  return new ArusError(
    "METADATA_LOG_CORRUPT",
    `Metadata log file ${file} is unusable: ${problem}. Nothing was skipped; restore the file, or remove the output (and its checkpoint) to start over.`,
  );
}

function logFiles(names: readonly string[]): LogFileName[] {
  return names
    .map(parseLogFileName)
    .filter((n): n is LogFileName => n !== null)
    .sort((a, b) => a.id - b.id);
}

/** The log's files by id; an absent directory is an empty log. */
export async function listLog(dir: string): Promise<LogFileName[]> {
  try {
    return logFiles(await readdir(dir));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
}

export function listLogSync(dir: string): LogFileName[] {
  try {
    return logFiles(readdirSync(dir));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
}

export async function readLog<T>(dir: string, file: LogFileName): Promise<T[]> {
  const p = join(dir, file.name);
  return parseLog<T>(await readFile(p, "utf8"), p);
}

export function readLogSync<T>(dir: string, file: LogFileName): T[] {
  const p = join(dir, file.name);
  return parseLog<T>(readFileSync(p, "utf8"), p);
}
