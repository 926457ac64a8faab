import { defineCase } from "../../case.js";

export default defineCase({
  description: "JSON PERMISSIVE with a _corrupt_record column in the schema: malformed lines keep their raw text there.",
  input: {
    schema: "a INT, _corrupt_record STRING",
    files: ['{"a": 1}\n{bad json\n{"a": "x"}\n'],
  },
  outputMode: "append",
  pyspark: `df`,
  arus: ({ df }) => df,
});
