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
  ...Object.fromEntries(
    [
      "groupstate/event-time-set-timeout-duration-error",
      "groupstate/get-without-state-error",
      "groupstate/no-timeout-set-timeout-timestamp-error",
      "groupstate/timeout-below-watermark-error",
      "groupstate/update-null-error",
    ].map((id) => [
      id,
      "Both refuse the call; PySpark's GroupState raises PySpark's own error classes (CANNOT_BE_NONE, STATE_NOT_EXISTS, CANNOT_WITHOUT, INVALID_TIMEOUT_TIMESTAMP), arus Scala's GroupStateImpl exceptions (ILLEGAL_ARGUMENT, NO_SUCH_ELEMENT, UNSUPPORTED_OPERATION) inside STATEFUL_PROCESSOR_FAILED (docs/differences.md).",
    ]),
  ),
};
