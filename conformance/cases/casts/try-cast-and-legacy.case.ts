import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "try_cast (SQL) returns NULL for bad input under ANSI; numeric strings with spaces are trimmed; decimals truncate toward zero when cast to INT.",
  input: {
    schema: "s STRING",
    batches: [
      [{ s: "12" }, { s: " 7 " }, { s: "abc" }, { s: "3.9" }, { s: "-3.9" }, { s: null }],
      [{ s: "2147483648" }, { s: "1e3" }],
    ],
  },
  sql: "SELECT s, try_cast(s AS INT) AS i, try_cast(s AS DOUBLE) AS d, try_cast(s AS BIGINT) AS l FROM input",
});
