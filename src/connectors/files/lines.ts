/** Text input helpers: bytes → string (gzip by extension, BOM dropped) and line splitting. */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";

// Spark picks the codec from the extension; gzip is the one that matters in practice.
const decompress = (file: string, buf: Uint8Array): Uint8Array => (file.endsWith(".gz") ? gunzipSync(buf) : buf);

export async function readInputBytes(file: string): Promise<Uint8Array> {
  return decompress(file, await readFile(file));
}

export function readInputBytesSync(file: string): Uint8Array {
  return decompress(file, readFileSync(file));
}

const decoder = new TextDecoder("utf-8");

export function decodeText(bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export async function readInputText(file: string): Promise<string> {
  return decodeText(await readInputBytes(file));
}

export function readInputTextSync(file: string): string {
  return decodeText(readInputBytesSync(file));
}

/**
 * Physical lines (`\n`, `\r\n` or `\r` terminated, as Hadoop's LineRecordReader); no empty
 * last line for a trailing terminator. Line i is 1-based line number i + 1.
 */
export function splitLines(text: string, lineSep?: string): string[] {
  if (text.length === 0) return [];
  // Without a '\r' in the text the three terminators reduce to '\n', and a plain string split
  // is several times faster than the regular expression.
  const lines = lineSep ? text.split(lineSep) : text.includes("\r") ? text.split(/\r\n|\r|\n/) : text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}
