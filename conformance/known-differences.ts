/**
 * Cases where arus is known to differ from Spark, each with the reason. A listed case that
 * fails is reported as a known difference (not a failure); a listed case that passes is
 * reported as a failure, so this list cannot go stale. See also docs/differences.md.
 */
export const KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {
  "aggregates/sum-types-decimal": "DECIMAL is not implemented yet: DECIMAL(p,s) columns are DOUBLE in arus, so sums print as doubles.",
  "casts/numeric-casts": "DECIMAL is not implemented yet: CAST(x AS DECIMAL(10,2)) gives a DOUBLE.",
  "console/console-value-rendering": "DECIMAL is not implemented yet: decimal cells render as doubles (1.5 vs 1.500).",
  "grouping/grouping-function": "TINYINT is not a type in arus yet: grouping(col) returns INT where Spark returns TINYINT (values equal).",
};
