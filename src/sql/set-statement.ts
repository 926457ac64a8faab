/**
 * `SET` and `RESET` read as Spark's SparkSqlParser reads them: from the raw text after the
 * keyword, with its regular expressions (a key is letters, digits, `_`, `.`, `:`; a value is
 * everything after `=` up to a `;`), so `SET spark.sql.shuffle.partitions=4` needs no quoting.
 * Backquotes allow any key or value: SET `a b`=`c;d`.
 */

import { defaultTimeZone } from "../common/datetime/index.js";
import { ParseException } from "../common/errors.js";
import { tokenize } from "./lexer.js";

export type ConfStatement =
  /** `SET` (key null: list the settings), `SET key` (value null: show it), `SET key=value`. */
  | { readonly kind: "set"; readonly key: string | null; readonly value: string | null }
  /** `RESET` (key null: every setting) or `RESET key`. */
  | { readonly kind: "reset"; readonly key: string | null };

const KEY_VALUE = /^([a-zA-Z_\d\\.:]+)\s*=([^;]*);*$/s;
const KEY = /^([a-zA-Z_\d\\.:]+)$/;
const VALUE = /^([^;]*);*$/s;
const QUOTED = "`((?:[^`]|``)*)`";
const unquote = (s: string) => s.replaceAll("``", "`");
export const TIME_ZONE_KEY = "spark.sql.session.timeZone";

/** A SET / RESET statement, or null when `text` is neither. */
export function readConfStatement(text: string): ConfStatement | null {
  const head = /^\s*(SET|RESET)(?![\p{L}\d_])/iu.exec(text);
  if (!head) return null;
  // Spark's `.*?` stops before the statement's trailing semicolons
  const body = text
    .slice(head[0].length)
    .replace(/[\s;]*$/, "")
    .trim();
  if (head[1]!.toUpperCase() === "RESET") return reset(text, body);
  if (/^(VAR|VARIABLE)\s/i.test(body)) throw new ParseException("SET VAR: arus has no session variables.", text, 0);
  if (/^TIME\s+ZONE(\s|$)/i.test(body)) return timeZone(text, body.replace(/^TIME\s+ZONE/i, "").trim());
  if (body === "") return { kind: "set", key: null, value: null };
  if (body === "-v") throw new ParseException("SET -v (every setting with its meaning) is not supported by arus; use SET.", text, 0);
  const quotedKey = new RegExp(`^${QUOTED}\\s*(?:=(.*))?$`, "s").exec(body);
  if (quotedKey) {
    const key = unquote(quotedKey[1]!);
    if (quotedKey[2] === undefined) return { kind: "set", key, value: null };
    return { kind: "set", key, value: value(text, key, quotedKey[2].trim()) };
  }
  const quotedValue = new RegExp(`^(.*?)=\\s*${QUOTED}$`, "s").exec(body);
  if (quotedValue) {
    const key = quotedValue[1]!.trim();
    const v = unquote(quotedValue[2]!);
    if (!KEY.test(key))
      throw fail(
        text,
        `[INVALID_PROPERTY_KEY] "${key}" is an invalid property key, please use quotes, e.g. SET "${key}"="${v}". SQLSTATE: 42602`,
      );
    return { kind: "set", key, value: v };
  }
  const kv = KEY_VALUE.exec(body);
  if (kv) return { kind: "set", key: kv[1]!, value: kv[2]!.trim() };
  if (KEY.test(body)) return { kind: "set", key: body, value: null };
  throw fail(
    text,
    "[INVALID_SET_SYNTAX] Expected format is 'SET', 'SET key', or 'SET key=value'. If you want to include special characters in key, or include semicolon in value, please use backquotes, e.g., SET `key`=`value`. SQLSTATE: 42000",
  );
}

/** The value after a backquoted key's `=`: backquoted, or raw text without a `;`. */
function value(text: string, key: string, raw: string): string {
  const q = new RegExp(`^${QUOTED}$`, "s").exec(raw);
  if (q) return unquote(q[1]!);
  const m = VALUE.exec(raw);
  if (m) return m[1]!;
  throw fail(
    text,
    `[INVALID_PROPERTY_VALUE] "${raw}" is an invalid property value, please use quotes, e.g. SET "${key}"="${raw}" SQLSTATE: 42602`,
  );
}

function reset(text: string, body: string): ConfStatement {
  if (body === "") return { kind: "reset", key: null };
  const q = new RegExp(`^${QUOTED}$`, "s").exec(body);
  if (q) return { kind: "reset", key: unquote(q[1]!) };
  if (KEY.test(body)) return { kind: "reset", key: body };
  throw fail(
    text,
    "[INVALID_RESET_COMMAND_FORMAT] Expected format is 'RESET' or 'RESET key'. If you want to include special characters in key, please use quotes, e.g., RESET `key`. SQLSTATE: 42000",
  );
}

/** SET TIME ZONE 'zone' | LOCAL: the session time zone (LOCAL = the process's). */
function timeZone(text: string, rest: string): ConfStatement {
  if (/^LOCAL$/i.test(rest)) return { kind: "set", key: TIME_ZONE_KEY, value: defaultTimeZone() };
  const toks = rest === "" ? [] : tokenize(rest);
  if (toks.length === 2 && toks[0]!.kind === "string") return { kind: "set", key: TIME_ZONE_KEY, value: toks[0]!.value };
  if (/^INTERVAL\s/i.test(rest))
    throw fail(text, "SET TIME ZONE INTERVAL is not supported by arus; give the offset as a string: SET TIME ZONE '+01:00'.");
  throw fail(text, "Invalid time zone displacement value.");
}

const fail = (text: string, message: string) => new ParseException(message, text, 0);
