/**
 * `arus.columnar.utf8Strings` (default true): whether readers that can (the WASM JSON-lines
 * decoder, Arrow import) build STRING columns as UTF-8 bytes + offsets (utf8.ts) instead of a
 * JS string per row. Same rows either way. Process-wide like `arus.json.decoder`: the session sets it, decode requests carry
 * it to the worker threads.
 */
import { IllegalArgumentException } from "../common/errors.js";

export const UTF8_STRINGS_CONF = "arus.columnar.utf8Strings";

let current = true;

/** The conf value as a boolean; a clear error for anything else. */
export function utf8StringsOf(value: string | undefined): boolean {
  const v = (value ?? "true").trim().toLowerCase();
  if (v !== "true" && v !== "false") throw new IllegalArgumentException(`${UTF8_STRINGS_CONF} must be 'true' or 'false', got '${value}'.`);
  return v === "true";
}

export function setUtf8Strings(on: boolean): void {
  current = on;
}

export function utf8Strings(): boolean {
  return current;
}
