/**
 * The file source's own options (Spark's FileStreamOptions), parsed once with Spark's messages.
 * Everything else in the option map is passed through to the format's reader.
 */

import { resolve } from "node:path";
import { IllegalArgumentException } from "../../common/errors.js";
import { expandGlob, hasGlob } from "../files/glob.js";
import { READ_ROOTS_OPTION } from "../files/partitions.js";
import { readRoots } from "../files/paths.js";
import { findOption } from "../registry.js";

export type CleanSourceMode = "off" | "delete" | "archive";

export interface FileStreamOptions {
  /** Absolute directory being watched. */
  readonly path: string;
  readonly maxFilesPerTrigger: number | null;
  /** Spark 4's maxBytesPerTrigger (never with maxFilesPerTrigger). */
  readonly maxBytesPerTrigger: number | null;
  readonly latestFirst: boolean;
  readonly fileNameOnly: boolean;
  readonly cleanSource: CleanSourceMode;
  /** Absolute, set iff cleanSource is archive. */
  readonly sourceArchiveDir: string | null;
}

function boolOption(options: Readonly<Record<string, string>>, name: string): boolean {
  const raw = findOption(options, name);
  if (raw === undefined) return false;
  const v = raw.toLowerCase();
  if (v === "true" || v === "false") return v === "true";
  throw new IllegalArgumentException(`Invalid value '${raw}' for option '${name}', must be 'true' or 'false'`);
}

/** A positive whole-number option (Java's toInt / toLong, then Spark requires it positive). */
function positive(options: Readonly<Record<string, string>>, name: string, max: number): number | null {
  const raw = findOption(options, name);
  if (raw === undefined) return null;
  const v = Number(raw.trim());
  if (!/^[+-]?\d+$/.test(raw.trim()) || !Number.isSafeInteger(v) || v <= 0 || v > max) {
    throw new IllegalArgumentException(`Invalid value '${raw}' for option '${name}', must be a positive integer`);
  }
  return v;
}

function cleanMode(options: Readonly<Record<string, string>>): CleanSourceMode {
  const raw = findOption(options, "cleanSource");
  if (raw === undefined) return "off";
  const v = raw.toLowerCase();
  if (v === "off" || v === "delete" || v === "archive") return v;
  // Spark prints the Scala Option here, hence `Some(...)`.
  throw new IllegalArgumentException(`Invalid mode for clean source option Some(${raw}). Must be one of ARCHIVE,DELETE,OFF`);
}

/** Path segments of an absolute path (`/a/b` → ["a", "b"]). */
function segments(abs: string): string[] {
  return abs.split(/[\\/]+/).filter(Boolean);
}

/**
 * Spark refuses an archive directory that could match the source pattern: compared at the
 * smaller of the two depths, the paths must differ (so archived files are never re-listed).
 */
function checkArchiveDir(source: string, archive: string): void {
  const s = segments(source);
  const a = segments(archive);
  const depth = Math.min(s.length, a.length);
  if (s.slice(0, depth).join("/") === a.slice(0, depth).join("/")) {
    throw new IllegalArgumentException(
      "requirement failed: Base archive path cannot be set to the path where archived path can possibly match with source pattern. Ensure the base archive path doesn't match with source pattern in depth, where the depth is minimum of depth on both paths.",
    );
  }
}

export function parseFileStreamOptions(options: Readonly<Record<string, string>>): FileStreamOptions {
  for (const banned of ["modifiedBefore", "modifiedAfter"]) {
    if (findOption(options, banned) !== undefined) {
      throw new IllegalArgumentException(`option '${banned}' is not allowed in file stream sources`);
    }
  }
  const rawPath = findOption(options, "path");
  if (rawPath === undefined || rawPath === "") throw new IllegalArgumentException("'path' is not specified");
  const path = resolve(rawPath);
  const cleanSource = cleanMode(options);
  const archiveRaw = findOption(options, "sourceArchiveDir");
  if (cleanSource === "archive" && archiveRaw === undefined) {
    throw new IllegalArgumentException("Archive mode must be used with 'sourceArchiveDir' option.");
  }
  const sourceArchiveDir = cleanSource === "archive" ? resolve(archiveRaw!) : null;
  if (sourceArchiveDir) checkArchiveDir(path, sourceArchiveDir);
  const maxFilesPerTrigger = positive(options, "maxFilesPerTrigger", 2147483647);
  const maxBytesPerTrigger = positive(options, "maxBytesPerTrigger", Number.MAX_SAFE_INTEGER);
  if (maxFilesPerTrigger !== null && maxBytesPerTrigger !== null) {
    throw new IllegalArgumentException("Options 'maxFilesPerTrigger' and 'maxBytesPerTrigger' can't be both set at the same time");
  }
  return {
    path,
    maxFilesPerTrigger,
    maxBytesPerTrigger,
    latestFirst: boolOption(options, "latestFirst"),
    fileNameOnly: boolOption(options, "fileNameOnly"),
    cleanSource,
    sourceArchiveDir,
  };
}

/** Source-only keys are not the reader's business; `basePath` anchors partition discovery. */
const SOURCE_KEYS = new Set([
  "path",
  "maxfilespertrigger",
  "maxbytespertrigger",
  "latestfirst",
  "filenameonly",
  "cleansource",
  "sourcearchivedir",
  "maxfileage",
]);

export function readerOptions(options: Readonly<Record<string, string>>, basePath: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(options)) if (!SOURCE_KEYS.has(k.toLowerCase())) out[k] = v;
  if (findOption(out, "basePath") === undefined) {
    // a glob's matches are the roots partitions are found below (those it has when the query is defined)
    if (!hasGlob(basePath)) out.basePath = basePath;
    else out[READ_ROOTS_OPTION] = JSON.stringify(expandGlob(basePath).length === 0 ? [] : readRoots([basePath]));
  }
  return out;
}
