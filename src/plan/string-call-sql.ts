/**
 * Spark's column names for string calls that print differently from `name(args)`: the
 * two-argument trims as `TRIM(LEADING x FROM s)`, and the calls that print their default
 * argument (`locate(a, s, 1)`, `split(s, ,, -1)`, `regexp_extract(s, p, 1)`, `lpad(s, 3,  )`).
 */

const TRIM_SIDE: Readonly<Record<string, string>> = { trim: "BOTH", ltrim: "LEADING", rtrim: "TRAILING" };
const DEFAULT_LAST_ARG: Readonly<Record<string, [number, string]>> = {
  locate: [2, "1"],
  position: [2, "1"],
  split: [2, "-1"],
  regexp_extract: [2, "1"],
  regexp_extract_all: [2, "1"],
  lpad: [2, " "],
  rpad: [2, " "],
};

/** The name Spark gives the call, or undefined when it is the plain `name(args)`. `a`: the arguments' SQL. */
export function stringCallSql(name: string, a: readonly string[]): string | undefined {
  if (TRIM_SIDE[name] && a.length === 2) return `TRIM(${TRIM_SIDE[name]} ${a[0]} FROM ${a[1]})`;
  const d = DEFAULT_LAST_ARG[name];
  if (d && a.length === d[0]) return `${name}(${[...a, d[1]].join(", ")})`;
  return undefined;
}
