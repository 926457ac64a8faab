/**
 * The file layout every Spark metadata log shares (HDFSMetadataLog and its subclasses: the
 * offset and commit logs of checkpoint/, the file source and file sink logs of
 * connectors/file-stream/): one file per batch named by its decimal id (`N`, or `N.compact` for
 * a compaction batch of the file logs), starting with a version line `vN`. Both readers split a
 * file and name it here, and word their own errors.
 */

export interface LogFileName {
  readonly id: number;
  readonly compact: boolean;
  readonly name: string;
}

/** The id of a log file's name; null for any other name (temp files, `.crc` sidecars). */
export function parseLogFileName(name: string): LogFileName | null {
  const m = /^(\d+)(\.compact)?$/.exec(name);
  return m ? { id: Number(m[1]), compact: m[2] !== undefined, name } : null;
}

export interface VersionedText {
  /** The first line as found. */
  readonly firstLine: string;
  /** N of a `vN` first line; null when the first line is not one. */
  readonly version: number | null;
  /** What follows the first newline; null when the file has no newline. */
  readonly body: string | null;
}

/** A log file's text split into its version line and the entries after it. */
export function splitVersionLine(text: string): VersionedText {
  const nl = text.indexOf("\n");
  const firstLine = nl < 0 ? text : text.slice(0, nl);
  const m = /^v(\d+)$/.exec(firstLine);
  return { firstLine, version: m ? Number(m[1]) : null, body: nl < 0 ? null : text.slice(nl + 1) };
}
