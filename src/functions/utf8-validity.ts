/**
 * is_valid_utf8, make_valid_utf8, validate_utf8 and try_validate_utf8. arus strings are always
 * valid text, so what can be invalid is a BINARY value used as a string (x'61FF'): these take
 * BINARY arguments as bytes (without the cast to STRING that would repair them). make_valid_utf8
 * replaces each invalid sequence by U+FFFD; validate_utf8 raises INVALID_UTF8_STRING (NULL for
 * try_).
 */
import { ArusError } from "../common/errors.js";
import { BooleanType, type DataType, StringType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, register, type ScalarFunction } from "./registry.js";

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder("utf-8", { ignoreBOM: true });

function decodeStrict(b: Uint8Array): string | null {
  try {
    return strict.decode(b);
  } catch {
    return null;
  }
}

function utf8Function(name: string, result: DataType, fn: (v: string | Uint8Array) => unknown): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types) {
      checkArity(name, args, 1);
      const t = types[0]!;
      return { args: [t.kind === "binary" ? args[0]! : castTo(args[0]!, t, StringType)], type: result };
    },
    kernel: (args, n) => mapRows(result, args, n, (v) => fn(v as string | Uint8Array)),
  };
}

const hexBytes = (b: Uint8Array) => Array.from(b, (x) => `\\x${x.toString(16).toUpperCase().padStart(2, "0")}`).join("");

register(
  utf8Function("is_valid_utf8", BooleanType, (v) => typeof v === "string" || decodeStrict(v) !== null),
  utf8Function("make_valid_utf8", StringType, (v) => (typeof v === "string" ? v : lenient.decode(v))),
  utf8Function("validate_utf8", StringType, (v) => {
    if (typeof v === "string") return v;
    const s = decodeStrict(v);
    if (s === null)
      throw new ArusError("INVALID_UTF8_STRING", `[INVALID_UTF8_STRING] Invalid UTF8 byte sequence found in string: ${hexBytes(v)}.`);
    return s;
  }),
  utf8Function("try_validate_utf8", StringType, (v) => (typeof v === "string" ? v : decodeStrict(v))),
);
