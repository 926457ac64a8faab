import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "JSON source in the default PERMISSIVE mode: a malformed line and a type mismatch become rows of NULLs (no _corrupt_record column in the schema); blank lines are skipped.",
  input: {
    schema: "a INT, s STRING",
    files: ['{"a": 1, "s": "x"}\n{bad json\n\n{"a": "notint", "s": "y"}\n{"s": "only s"}\n', '{"a": 2}\n'],
  },
  outputMode: "append",
  pyspark: `df`,
  arus: ({ df }) => df,
});
