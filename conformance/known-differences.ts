/**
 * Cases where arus is known to differ from Spark, each with the reason. A listed case that
 * fails is reported as a known difference (not a failure); a listed case that passes is
 * reported as a failure, so this list cannot go stale. See also docs/differences.md.
 */
export const KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {
};
