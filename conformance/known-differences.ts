/**
 * Cases where arus is known to differ from Spark, each with the reason. A listed case that
 * fails is reported as a known difference (not a failure); a listed case that passes is
 * reported as a failure, so this list cannot go stale. See also docs/differences.md.
 */
export const KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {
  "groupstate/data-call-without-timeout-keeps-old":
    "arus follows Scala's flatMapGroupsWithState: a call that sets no timeout clears the old one. PySpark 4.3's applyInPandasWithState compares the call's timeout with -1 instead of the stored one (GroupStateImpl.createForStreaming), so a call that writes nothing keeps the old timeout (docs/differences.md).",
  "groupstate/timed-out-key-untouched-fires-again":
    "The same PySpark 4.3 rule: a timed-out call that neither updates, removes nor sets a timeout leaves the fired timeout in place, so the key times out again every batch; arus (as Scala) clears it (docs/differences.md).",
  "groupstate/two-in-one-query-error":
    "PySpark refuses a second applyInPandasWithState in one query; arus follows Scala, which allows several flatMapGroupsWithState when all are Append in an Append query (docs/differences.md).",
};
