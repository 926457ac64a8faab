import { defineCase } from "../../case.js";

// U+FF61 and U+FFFD are above every surrogate unit in UTF-16 but below U+1F600 (😀) by code point.
export default defineCase({
  description:
    "min / max / sort_array(collect_list) of strings with characters beyond U+FFFF: Spark orders by UTF-8 bytes (code point), not UTF-16 code units; two batches so the state merges.",
  input: {
    schema: "k STRING, w STRING",
    batches: [
      [
        { k: "p", w: "😀" },
        { k: "p", w: "\uff61" },
        { k: "q", w: "x\ufffd" },
        { k: "q", w: "x😀" },
      ],
      [
        { k: "p", w: "\ufffd" },
        { k: "q", w: "x\ue000" },
        { k: "q", w: "x😀a" },
      ],
    ],
  },
  outputMode: "complete",
  sql: "SELECT k, min(w) AS lo, max(w) AS hi, sort_array(collect_list(w)) AS sorted FROM input GROUP BY k",
});
