/**
 * luhn_check(str) (Spark 4.0): whether a string of ASCII digits passes the Luhn checksum (card
 * and account numbers): from the right, every second digit doubled (less 9 above 9), the sum a
 * multiple of 10. Anything but digits (a space, a sign, a dash, an empty string) is false; the
 * argument is cast to a STRING first (a number checks its digits); NULL gives NULL.
 */
import { BooleanType, StringType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { castTo, checkArity, register, type ScalarFunction } from "./registry.js";

export function luhnValid(s: string): boolean {
  if (s.length === 0) return false;
  let sum = 0;
  for (let i = s.length - 1, second = false; i >= 0; i--, second = !second) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    const v = second ? d * 2 : d;
    sum += v > 9 ? v - 9 : v;
  }
  return sum % 10 === 0;
}

const luhnCheck: ScalarFunction = {
  kind: "scalar",
  name: "luhn_check",
  resolve(args, types) {
    checkArity("luhn_check", args, 1);
    return { args: [castTo(args[0]!, types[0]!, StringType)], type: BooleanType };
  },
  kernel: (args, n) => mapRows(BooleanType, args, n, (v) => luhnValid(v as string)),
};

register(luhnCheck);
