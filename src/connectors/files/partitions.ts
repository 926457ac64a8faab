/**
 * Hive-style partition directories (`col=value/`): escaping as Spark does, discovery from file
 * paths, type inference (int → bigint → double → date → timestamp → string) and value parsing.
 */
import { dirname, resolve, sep } from "node:path";
import { formatDate, formatTimestamp, parseDate, parseTimestamp } from "../../common/datetime/index.js";
import { AnalysisException } from "../../common/errors.js";
import { formatDouble } from "../../common/number-format.js";
import { widerNumeric } from "../../types/coercion.js";
import {
  type DataType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  NullType,
  StringType,
  type StructField,
  TimestampType,
} from "../../types/datatypes.js";
import { dateTimeText } from "./datetime-text.js";
import { FAIL, parseJavaDouble, parseJavaInt, parseJavaLong, textConverter } from "./text-values.js";

export const DEFAULT_PARTITION_NAME = "__HIVE_DEFAULT_PARTITION__";

function needsEscape(c: number): boolean {
  return (
    (c >= 0x01 && c <= 0x1f) ||
    c === 0x7f ||
    c === 0x22 || // "
    c === 0x23 || // #
    c === 0x25 || // %
    c === 0x27 || // '
    c === 0x2a || // *
    c === 0x2f || // /
    c === 0x3a || // :
    c === 0x3d || // =
    c === 0x3f || // ?
    c === 0x5c || // \
    c === 0x7b || // {
    c === 0x5b || // [
    c === 0x5d || // ]
    c === 0x5e // ^
  );
}

export function escapePathName(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += needsEscape(c) ? `%${c.toString(16).toUpperCase().padStart(2, "0")}` : s[i];
  }
  return out;
}

export function unescapePathName(s: string): string {
  return s.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

export type PartitionSpec = ReadonlyArray<readonly [name: string, raw: string]>;

/**
 * The `k=v` segments above a file, outermost first: walks up to `basePath` (Spark's option of
 * the same name), skipping directories that are not `k=v` below the partitions as Spark's
 * parsePartition does; without a base, up to the first directory that is not `k=v`.
 */
export function partitionSpecOf(file: string, basePath?: string): PartitionSpec {
  const base = basePath ? resolve(basePath) : null;
  const spec: Array<[string, string]> = [];
  let dir = dirname(resolve(file));
  while (dir !== dirname(dir) && dir !== base) {
    const name = dir.slice(dir.lastIndexOf(sep) + 1);
    const eq = name.indexOf("=");
    // Spark's parsePartition: directories that are not `k=v` below the partitions are skipped
    // (`p=1/sub/f.json` is in p=1); one above them, or any without a base to stop at, ends the walk.
    if (eq <= 0) {
      if (spec.length > 0 || base === null) break;
    } else spec.unshift([unescapePathName(name.slice(0, eq)), unescapePathName(name.slice(eq + 1))]);
    dir = dirname(dir);
  }
  return spec;
}

/**
 * The read option (internal) naming a read's roots when it has no single base (several paths,
 * a glob, a file): JSON of their directories. Partitions are found below a file's root only.
 */
export const READ_ROOTS_OPTION = "__arusReadRoots";

/**
 * A file's partition values under a read's options: none with `recursiveFileLookup` (Spark
 * turns partition inference off then), else `partitionSpecOf` below `basePath` or the file's
 * root (`READ_ROOTS_OPTION`).
 */
export function partitionSpecFor(file: string, options: { get(key: string): string | undefined }): PartitionSpec {
  if (options.get("recursiveFileLookup")?.trim().toLowerCase() === "true") return [];
  const base = options.get("basePath");
  if (base !== undefined) return partitionSpecOf(file, base);
  const roots = options.get(READ_ROOTS_OPTION);
  if (roots === undefined) return partitionSpecOf(file);
  const abs = resolve(file);
  const root = parsedRoots(roots).find((r) => abs.startsWith(r + sep));
  return partitionSpecOf(file, root ?? dirname(abs));
}

/** READ_ROOTS_OPTION's roots, deepest first (a read asks once per file: parsed once per text). */
let lastRoots: { text: string; roots: string[] } | null = null;
function parsedRoots(text: string): string[] {
  if (lastRoots?.text !== text) lastRoots = { text, roots: (JSON.parse(text) as string[]).sort((a, b) => b.length - a.length) };
  return lastRoots.roots;
}

function inferValueType(raw: string, tz: string): DataType {
  if (raw === DEFAULT_PARTITION_NAME) return NullType;
  if (parseJavaInt(raw) !== null) return IntegerType;
  if (parseJavaLong(raw) !== null) return LongType;
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw) && parseJavaDouble(raw) !== null) return DoubleType;
  const d = parseDate(raw);
  if (d !== null && formatDate(d) === raw) return DateType;
  if (/^\d{4}-\d{2}-\d{2}[ T]\d/.test(raw) && parseTimestamp(raw, tz) !== null) return TimestampType;
  return StringType;
}

/** Two partition values' types: numeric types widen (types/coercion.ts), DATE with TIMESTAMP is TIMESTAMP, else STRING. */
function widen(a: DataType, b: DataType): DataType {
  if (a.kind === b.kind) return a;
  if (a.kind === "null") return b;
  if (b.kind === "null") return a;
  const n = widerNumeric(a, b);
  if (n) return n;
  if ((a.kind === "date" && b.kind === "timestamp") || (a.kind === "timestamp" && b.kind === "date")) return TimestampType;
  return StringType;
}

/** Partition columns discovered from the files' directories (all files must agree on names). */
export function inferPartitionFields(
  files: readonly string[],
  tz: string,
  specOf: (file: string) => PartitionSpec = (f) => partitionSpecOf(f),
): StructField[] {
  let names: string[] | null = null;
  let types: DataType[] = [];
  for (const f of files) {
    const spec = specOf(f);
    // a file outside the partitions (the root's own, beside them) has none: Spark's
    // resolvePartitions leaves its directory out
    if (spec.length === 0) continue;
    const these = spec.map(([k]) => k);
    if (names === null) {
      names = these;
      types = these.map(() => NullType);
    } else if (names.length !== these.length || names.some((n, i) => n !== these[i])) {
      throw new AnalysisException(
        "CONFLICTING_DIRECTORY_STRUCTURES",
        `[CONFLICTING_DIRECTORY_STRUCTURES] Conflicting directory structures detected: partition columns (${names.join(", ")}) and (${these.join(", ")}) in ${f}. If provided paths are partition directories, please set "basePath" in the options of the data source to specify the root directory of the table.`,
      );
    }
    spec.forEach(([, raw], i) => {
      types[i] = widen(types[i]!, inferValueType(raw, tz));
    });
  }
  return (names ?? []).map((n, i) => field(n, types[i]!.kind === "null" ? StringType : types[i]!));
}

/** The internal value of one partition directory's text for `type` (null if it doesn't parse). */
export function partitionValue(raw: string, type: DataType, tz: string): unknown {
  if (raw === DEFAULT_PARTITION_NAME) return null;
  const v = textConverter(type, dateTimeText(null, tz))(raw);
  return v === FAIL ? null : v;
}

/** The directory text Spark writes for a partition value (a cast to string, escaped). */
export function partitionDirValue(value: unknown, type: DataType, tz: string): string {
  if (value === null || value === undefined) return DEFAULT_PARTITION_NAME;
  let text: string;
  switch (type.kind) {
    case "timestamp":
      text = formatTimestamp(value as number, tz);
      break;
    case "date":
      text = formatDate(value as number);
      break;
    case "double":
      text = formatDouble(value as number);
      break;
    case "boolean":
      text = value ? "true" : "false";
      break;
    case "bigint":
    case "int":
      text = Number.isSafeInteger(value) ? String(value) : BigInt(value as number).toString();
      break;
    default:
      text = String(value);
  }
  return text === "" ? DEFAULT_PARTITION_NAME : escapePathName(text);
}
