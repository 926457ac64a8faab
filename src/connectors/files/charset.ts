/**
 * The `encoding` (or `charset`) option of the JSON and CSV readers: the charsets Spark takes
 * (`iso-8859-1`, `us-ascii`, `utf-16`, `utf-16be`, `utf-16le`, `utf-32`, `utf-8`, any case; any
 * other name is Spark's INVALID_PARAMETER_VALUE.CHARSET) and decoding bytes as Java's decoders
 * do: ISO-8859-1 byte for byte, US-ASCII with U+FFFD for bytes past 0x7F, UTF-16 and UTF-32 by
 * their byte-order mark (big-endian without one). A file in another charset is decoded whole and
 * read as text, on the main thread (the line scanners and the decode threads read UTF-8).
 * Unlike Spark, which splits CSV lines on the raw bytes first, a UTF-16 or UTF-32 CSV file is
 * read as its text says.
 */
import { IllegalArgumentException } from "../../common/errors.js";
import { decodeText } from "./lines.js";
import type { SourceOptions } from "./options.js";

const CHARSETS = ["iso-8859-1", "us-ascii", "utf-16", "utf-16be", "utf-16le", "utf-32", "utf-8"] as const;
export type Charset = (typeof CHARSETS)[number];

/** The read's charset, or null for UTF-8 (the default: the fast paths apply); `where` names the options in Spark's error. */
export function readCharset(o: SourceOptions, where: "CSVOptions" | "JSONOptionsInRead"): Charset | null {
  const name = o.get("encoding") ?? o.get("charset");
  if (name === undefined) return null;
  const cs = CHARSETS.find((c) => c === name.toLowerCase());
  if (cs === undefined) {
    throw new IllegalArgumentException(
      `[INVALID_PARAMETER_VALUE.CHARSET] The value of parameter(s) \`charset\` in \`${where}\` is invalid: expects one of the ${CHARSETS.join(", ")}, but got ${name}.`,
      "INVALID_PARAMETER_VALUE.CHARSET",
    );
  }
  return cs === "utf-8" ? null : cs;
}

/**
 * The JSON reader's charset, with Spark's two requirements when records are lines: UTF-16 and
 * UTF-32 (whose byte order a BOM decides) only with `multiLine`, any other non-UTF-8 charset only
 * with `lineSep` given.
 */
export function jsonCharset(o: SourceOptions): Charset | null {
  const cs = readCharset(o, "JSONOptionsInRead");
  if (cs === null || o.bool("multiLine", false)) return cs;
  const name = o.get("encoding") ?? o.get("charset");
  if (cs === "utf-16" || cs === "utf-32") {
    throw new IllegalArgumentException(
      `requirement failed: The ${name} encoding must not be included in the denyList when multiLine is disabled:\ndenylist: UTF-16, UTF-32`,
    );
  }
  if (o.get("lineSep") === undefined)
    throw new IllegalArgumentException(`requirement failed: The lineSep option must be specified for the ${name} encoding`);
  return cs;
}

/** `bytes` decoded from `cs` as Java decodes them (a leading BOM dropped). */
export function decodeCharset(bytes: Uint8Array, cs: Charset | null): string {
  switch (cs) {
    case null:
    case "utf-8":
      return decodeText(bytes);
    case "iso-8859-1":
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
    case "us-ascii": {
      let s = "";
      for (let i = 0; i < bytes.length; i += 8192)
        s += String.fromCharCode(...Array.from(bytes.subarray(i, i + 8192), (b) => (b < 0x80 ? b : 0xfffd)));
      return s;
    }
    case "utf-16be":
    case "utf-16le":
      return new TextDecoder(cs).decode(bytes);
    case "utf-16": {
      const le = bytes[0] === 0xff && bytes[1] === 0xfe;
      return new TextDecoder(le ? "utf-16le" : "utf-16be").decode(bytes);
    }
    case "utf-32":
      return decodeUtf32(bytes);
  }
}

function decodeUtf32(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let le = false;
  let at = 0;
  if (bytes.length >= 4 && view.getUint32(0, false) === 0x0000feff) at = 4;
  else if (bytes.length >= 4 && view.getUint32(0, true) === 0x0000feff) {
    le = true;
    at = 4;
  }
  const points: number[] = [];
  for (; at + 4 <= bytes.length; at += 4) {
    const c = view.getUint32(at, le);
    points.push(c <= 0x10ffff && (c < 0xd800 || c > 0xdfff) ? c : 0xfffd);
  }
  if (at < bytes.length) points.push(0xfffd);
  let s = "";
  for (let i = 0; i < points.length; i += 8192) s += String.fromCodePoint(...points.slice(i, i + 8192));
  return s;
}
