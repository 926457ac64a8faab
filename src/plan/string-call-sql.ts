/**
 * Spark's column names for calls (mostly string ones) that print differently from `name(args)`: the
 * two-argument trims as `TRIM(LEADING x FROM s)`, and the calls that print their default
 * argument (`locate(a, s, 1)`, `split(s, ,, -1)`, `regexp_extract(s, p, 1)`, `lpad(s, 3,  )`, `replace(s, a, )`,
 * `array_sort(a, lambdafunction(...))`).
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
  replace: [2, ""],
  // array_sort(a): Spark's default comparator, printed as the lambda it is
  array_sort: [
    1,
    "lambdafunction((IF(((namedlambdavariable() IS NULL) AND (namedlambdavariable() IS NULL)), 0, (IF((namedlambdavariable() IS NULL), 1, (IF((namedlambdavariable() IS NULL), -1, (IF((namedlambdavariable() < namedlambdavariable()), -1, (IF((namedlambdavariable() > namedlambdavariable()), 1, 0)))))))))), namedlambdavariable(), namedlambdavariable())",
  ],
};

/** The name Spark gives the call, or undefined when it is the plain `name(args)`. `a`: the arguments' SQL. */
export function stringCallSql(name: string, a: readonly string[]): string | undefined {
  if (TRIM_SIDE[name] && a.length === 2) return `TRIM(${TRIM_SIDE[name]} ${a[0]} FROM ${a[1]})`;
  const d = DEFAULT_LAST_ARG[name];
  if (d && a.length === d[0]) return `${name}(${[...a, d[1]].join(", ")})`;
  return undefined;
}
