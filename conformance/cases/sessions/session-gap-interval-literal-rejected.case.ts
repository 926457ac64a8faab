import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "An ANSI interval literal (`interval 5 seconds`, a DAY TO SECOND interval) as the session gap is refused at analysis: the gap must be a string or a CalendarInterval expression.",
  input: { schema: "k STRING, ts TIMESTAMP", batches: [[{ k: "a", ts: t(1) }]] },
  outputMode: "append",
  pyspark: `df.withWatermark("ts", "5 seconds").groupBy(F.session_window("ts", F.expr("interval 5 seconds")), "k").count()`,
  arus: ({ df, F }) =>
    df
      .withWatermark("ts", "5 seconds")
      .groupBy(F.session_window("ts", F.expr("interval 5 seconds")), "k")
      .count(),
  expectError: "Gap duration expression used in session window must be CalendarIntervalType",
});
