import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "Console rendering of NULL, booleans, doubles (1.0E20, 0.1, NaN-free), decimals, arrays, nested structs with NULL fields, maps, escaped newlines/tabs, East Asian wide characters and long strings truncated to 20 characters.",
  input: {
    schema:
      "s STRING, d DOUBLE, dec DECIMAL(12,3), b BOOLEAN, ts TIMESTAMP, arr ARRAY<INT>, st STRUCT<x: INT, y: STRING>, m MAP<STRING, INT>",
    batches: [
      [
        { s: "plain", d: 1e20, dec: 1.5, b: true, ts: t(0), arr: [1, null, 3], st: { x: 1, y: null }, m: { k: 1 } },
        { s: null, d: 0.1, dec: -0.001, b: null, ts: null, arr: [], st: null, m: null },
        { s: "line1\nline2\ttab", d: -0.0, dec: 123456789.123, b: false, ts: t(0, 100), arr: null, st: { x: null, y: "why" }, m: {} },
        { s: "日本語のテキストです", d: 123456789.0, dec: 0, b: true, ts: t(86399.999999), arr: [7], st: { x: 2, y: "z" }, m: { a: null } },
        {
          s: "a very long string that exceeds twenty characters",
          d: 3.0,
          dec: null,
          b: false,
          ts: t(1),
          arr: [1, 2, 3, 4, 5, 6, 7, 8],
          st: { x: 3, y: "" },
          m: { b: 2 },
        },
      ],
    ],
  },
  outputMode: "append",
  pyspark: `df`,
  arus: ({ df }) => df,
  console: {},
});
