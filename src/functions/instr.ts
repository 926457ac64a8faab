/**
 * instr(str, substr[, position[, occurrence]]) as Spark 4's: the 1-based character position of
 * the `occurrence`-th match of substr (matches may overlap), searching forward from `position`,
 * or backward from the end when it is negative (-1: from the last character, a match starting at
 * or before it); 0 when there is none or position is 0. An empty substr is found at 1. Positions
 * count characters (code points). The two-argument form runs on UTF-8 bytes where it can.
 */

import { ArusError } from "../common/errors.js";
import { literal } from "../plan/expressions.js";
import { IntegerType, StringType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { register, type ScalarFunction } from "./registry.js";
import { signature } from "./strings.js";
import { utf8Instr } from "./utf8-kernels.js";

const S = StringType;
const I = IntegerType;
const resolveArgs = signature("instr", [S, S, I, I], I, 2);

/** The first match of `t` in `s`, as a character position (0: none). */
function firstMatch(s: string, t: string): number {
  const at = s.indexOf(t);
  if (at < 0) return 0;
  let pos = at + 1;
  for (let k = 0; k < at; k++) if ((s.charCodeAt(k) & 0xfc00) === 0xdc00) pos--; // the second unit of a pair
  return pos;
}

/** The `occurrence`-th match of `t` in `s` from `position` (negative: backward from the end). */
function matchAt(s: string, t: string, position: number, occurrence: number): number {
  if (occurrence <= 0) {
    throw new ArusError(
      "INVALID_PARAMETER_VALUE.OCCURRENCE",
      `[INVALID_PARAMETER_VALUE.OCCURRENCE] The value of parameter(s) \`occurrence\` in \`instr\` is invalid: expects a positive integer, but got ${occurrence}.`,
    );
  }
  if (t.length === 0) return 1;
  if (position === 0) return 0;
  const cs = Array.from(s);
  const ts = Array.from(t);
  const last = cs.length - ts.length;
  const matches = (i: number): boolean => ts.every((c, k) => cs[i + k] === c);
  let seen = 0;
  if (position > 0) {
    for (let i = position - 1; i <= last; i++) if (matches(i) && ++seen === occurrence) return i + 1;
  } else {
    for (let i = Math.min(cs.length + position, last); i >= 0; i--) if (matches(i) && ++seen === occurrence) return i + 1;
  }
  return 0;
}

const instr: ScalarFunction = {
  kind: "scalar",
  name: "instr",
  resolve(args, types, call) {
    const r = resolveArgs(args, types, call);
    // instr(s, t, position) is named with its default occurrence, as Spark's
    return args.length === 3 ? { args: [...r.args, literal(1, I)], type: I } : r;
  },
  kernel: (args, n) =>
    args.length === 2
      ? (utf8Instr(args[0]!, args[1]!, n) ?? mapRows(I, args, n, (s, t) => firstMatch(s as string, t as string)))
      : mapRows(I, args, n, (s, t, p, o) => matchAt(s as string, t as string, p as number, o as number)),
};

register(instr);
