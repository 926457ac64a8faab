import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "array_position / array_remove / array_union / array_intersect / array_except / arrays_overlap / array_compact / array_append / array_prepend, slice, flatten, arrays_zip, sequence; levenshtein (with threshold), soundex, split_part, btrim, octet_length, bit_length, character_length, ILIKE, regexp_like, url_encode / url_decode, overlay — with NULL rows and NULL elements.",
  input: {
    schema: "a ARRAY<INT>, b ARRAY<INT>, s STRING, t STRING, n INT",
    batches: [
      [
        { a: [3, 1, null, 1], b: [1, 4, null], s: "Spark SQL", t: "spork", n: 2 },
        { a: [], b: [2], s: "a b&c=é", t: "", n: -1 },
        { a: [5, 6], b: [], s: "Ashcraft", t: "ASHCROFT", n: 3 },
        { a: null, b: null, s: null, t: null, n: null },
      ],
    ],
  },
  sql: `SELECT array_position(a, 1) AS pos, array_remove(a, 1) AS rem, array_union(a, b) AS uni,
    array_intersect(a, b) AS isect, array_except(a, b) AS exc, arrays_overlap(a, b) AS ovl,
    array_compact(a) AS cmp, array_append(a, n) AS app, array_prepend(b, n) AS pre,
    slice(a, n, 2) AS sl, flatten(array(a, b)) AS fl, arrays_zip(a, b) AS zp, sequence(1, n) AS sq,
    levenshtein(s, t) AS lev, levenshtein(s, t, 4) AS lev4, soundex(s) AS sdx, soundex(t) AS sdt,
    split_part(s, ' ', n) AS sp, btrim(s, 'St') AS bt, octet_length(s) AS ol, bit_length(t) AS bl,
    character_length(s) AS cl, s ILIKE '%sql' AS il, regexp_like(s, '^[A-Z]') AS rl,
    url_encode(s) AS ue, url_decode(url_encode(s)) AS ud, overlay(s, t, 2) AS ov, overlay(s, t, 2, n) AS ovn
    FROM input`,
  notes: "Expected values come from PySpark itself (conformance/run.ts).",
});
