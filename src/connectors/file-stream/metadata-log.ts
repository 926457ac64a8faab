/**
 * The shared file layout of Spark's metadata logs (HDFSMetadataLog / CompactibleFileStreamLog):
 * one file per batch named by its decimal id (`N`, or `N.compact` for a compaction batch),
 * content `v1` then one JSON object per line, no trailing newline. Names that are not ids are
 * ignored, so temp files and `.crc` sidecars never count.
 */
import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { IllegalArgumentException } from "../../common/errors.js";

export const LOG_VERSION = 1;

export interface LogFileName {
  readonly id: number;
  readonly compact: boolean;
  readonly name: string;
}

export function serializeLog(entries: readonly unknown[]): string {
  return [`v${LOG_VERSION}`, ...entries.map((e) => JSON.stringify(e))].join("\n");
}

export function parseLog<T>(text: string, where: string): T[] {
  const lines = text.split("\n");
  const version = /^v(\d+)$/.exec(lines[0] ?? "");
  if (!version) throw new IllegalArgumentException(`Log file was malformed: failed to detect the log file version line in ${where}.`);
  if (Number(version[1]) > LOG_VERSION) {
    throw new IllegalArgumentException(
      `UnsupportedLogVersion: maximum supported log version is v${LOG_VERSION}, but encountered v${version[1]} in ${where}. The log file was produced by a newer version.`,
    );
  }
  return lines
    .slice(1)
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as T);
}

function parseName(name: string): LogFileName | null {
  const m = /^(\d+)(\.compact)?$/.exec(name);
  return m ? { id: Number(m[1]), compact: m[2] !== undefined, name } : null;
}

function logFiles(names: readonly string[]): LogFileName[] {
  return names
    .map(parseName)
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
