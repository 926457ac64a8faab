/**
 * to_binary(str[, fmt]) and try_to_binary: text to BINARY by a literal format, 'hex' (the
 * default; an odd length gets a leading 0, as unhex), 'utf-8' / 'utf8' or 'base64'. Text that is
 * not valid in the format is CONVERSION_INVALID_INPUT under ANSI and NULL otherwise (always NULL
 * for try_).
 */
import { AnalysisException, ArusError } from "../common/errors.js";
import { exprToSql } from "../plan/sql-text.js";
import { BinaryType, StringType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, register, type ScalarFunction } from "./registry.js";
import { unbase64, unhex } from "./strings-extra.js";

const utf8 = new TextEncoder();
const FORMATS = new Set(["hex", "utf-8", "utf8", "base64"]);

function toBinary(name: string, tolerant: boolean): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1, 2);
      const fmt = args[1];
      if (fmt && !(fmt.kind === "literal" && (fmt.value === null || FORMATS.has(String(fmt.value).toLowerCase())))) {
        throw new AnalysisException(
          "DATATYPE_MISMATCH.INVALID_ARG_VALUE",
          `[DATATYPE_MISMATCH.INVALID_ARG_VALUE] Cannot resolve "${exprToSql(call)}" due to data type mismatch: The fmt value must to be a case-insensitive "STRING" literal of 'hex', 'utf-8', 'utf8', or 'base64', but got '${fmt.kind === "literal" ? String(fmt.value) : exprToSql(fmt)}'.`,
        );
      }
      return { args: args.map((a, i) => castTo(a, types[i]!, StringType)), type: BinaryType };
    },
    kernel: (args, n, ctx) =>
      mapRows(BinaryType, args, n, (s, f) => {
        const format = String(f ?? "hex").toLowerCase();
        const text = s as string;
        const out = format === "hex" ? unhex(text) : format === "base64" ? unbase64(text) : utf8.encode(text);
        if (out === null && !tolerant && ctx.ansi) {
          throw new ArusError(
            "CONVERSION_INVALID_INPUT",
            `[CONVERSION_INVALID_INPUT] The value '${text}' ("STRING") cannot be converted to "BINARY" because it is malformed. Correct the value as per the syntax, or change its format. Use 'try_to_binary' to tolerate malformed input and return NULL instead.`,
          );
        }
        return out;
      }),
  };
}

register(toBinary("to_binary", false), toBinary("try_to_binary", true));
