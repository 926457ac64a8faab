/**
 * make_dt_interval([days[, hours[, mins[, secs]]]]): an INTERVAL DAY TO SECOND from its parts
 * (INT, INT, INT, DECIMAL(18,6); missing ones are 0, NULL in any gives NULL), exact in 64-bit
 * microseconds as Spark adds them (INTERVAL_ARITHMETIC_OVERFLOW beyond).
 */
import { ArusError } from "../common/errors.js";
import { IntegerType, IntervalType } from "../types/datatypes.js";
import { DecimalOf } from "../types/decimal.js";
import { mapRows } from "./kernel-util.js";
import { checkArity, numberArg, register, type ScalarFunction } from "./registry.js";

const SECONDS = DecimalOf(18, 6);
const LONG_MAX = (1n << 63n) - 1n;
const PART_MICROS = [86_400_000_000n, 3_600_000_000n, 60_000_000n];

function overflow(): ArusError {
  return new ArusError(
    "INTERVAL_ARITHMETIC_OVERFLOW.WITHOUT_SUGGESTION",
    "[INTERVAL_ARITHMETIC_OVERFLOW.WITHOUT_SUGGESTION] Integer overflow while operating with intervals. Try devising appropriate values for the interval parameters.",
  );
}

const makeDtInterval: ScalarFunction = {
  kind: "scalar",
  name: "make_dt_interval",
  resolve(args, types, call) {
    checkArity("make_dt_interval", args, 0, 4);
    return { args: args.map((_, i) => numberArg(call, args, types, i, i === 3 ? SECONDS : IntegerType)), type: IntervalType };
  },
  kernel: (args, n) => {
    if (args.length === 0) return mapRows(IntervalType, [], n, () => 0);
    return mapRows(IntervalType, args, n, (...parts) => {
      let micros = 0n;
      parts.forEach((p, i) => {
        // secs is DECIMAL(18,6): its unscaled value counts microseconds
        micros += i === 3 ? BigInt(p as number | bigint) : BigInt(p as number) * PART_MICROS[i]!;
      });
      if (micros > LONG_MAX || micros < -LONG_MAX - 1n) throw overflow();
      return Number(micros);
    });
  },
};

register(makeDtInterval);
