import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "CSV scans take pushed filters too (spark.sql.csv.filterPushdown.enabled): `k <> 'a'` and the inferred IsNotNull(k) remove rows before numInputRows.",
  input: {
    schema: "k STRING, v INT",
    format: "csv",
    files: ["a,1\nb,2\n,3\nc,4\n"],
  },
  sql: "SELECT k, v FROM input WHERE k <> 'a'",
});
