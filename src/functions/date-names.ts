/**
 * dayname / monthname: English three-letter names, as Spark's DayName / MonthName.
 */

import { civilFromDays } from "../common/datetime/calendar.js";
import { StringType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { checkArity, dateArg, register, type ScalarFunction } from "./registry.js";

const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A function of a DATE (timestamps and strings are cast to one) naming a part of it. */
function dateName(name: string, of: (days: number) => string): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      checkArity(name, args, 1);
      return { args: [dateArg(call, args, types, 0)], type: StringType };
    },
    kernel: (args, n) => mapRows(StringType, args, n, (d) => of(d as number)),
  };
}

register(
  // 1970-01-01 was a Thursday
  dateName("dayname", (d) => DAYS[(((d + 3) % 7) + 7) % 7]!),
  dateName("monthname", (d) => MONTHS[civilFromDays(d).month - 1]!),
);
