/**
 * Which decoder turns JSON lines into columns (`arus.json.decoder`): "wasm" (default) runs the
 * WebAssembly decoder (json-wasm.ts) for the records it understands and the byte scanner /
 * JSON.parse for every other line; "js" uses only the byte scanner. Both give the same rows.
 * Process-wide like the decode threads: the session sets it, decode requests carry it to the
 * worker threads.
 */
import { IllegalArgumentException } from "../../../common/errors.js";

export type JsonDecoder = "wasm" | "js";

export const JSON_DECODER_CONF = "arus.json.decoder";

let current: JsonDecoder = "wasm";

/** The conf value as a decoder; a clear error for anything else. */
export function jsonDecoderOf(value: string | undefined): JsonDecoder {
  const v = (value ?? "wasm").trim().toLowerCase();
  if (v !== "wasm" && v !== "js") throw new IllegalArgumentException(`${JSON_DECODER_CONF} must be 'wasm' or 'js', got '${value}'.`);
  return v;
}

export function setJsonDecoder(d: JsonDecoder): void {
  current = d;
}

export function jsonDecoder(): JsonDecoder {
  return current;
}
