/**
 * Shared inputs of the NULL event time cases (not a case itself): `l(k, ts, v)` and `r(rk, rt)`,
 * each with a 5-second watermark, a row with a NULL event time in the first two batches of `l`
 * and the first of `r`.
 */
import { type FileInput, t } from "../../case.js";

export const L_BATCHES = [
  [
    { k: "a", ts: t(1), v: 1 },
    { k: "n", ts: null, v: 2 },
  ],
  [
    { k: "b", ts: t(30), v: 3 },
    { k: "n", ts: null, v: 4 },
  ],
  [{ k: "c", ts: t(90), v: 5 }],
];

export function lInput(): FileInput {
  return { name: "l", schema: "k STRING, ts TIMESTAMP, v INT", watermark: { column: "ts", delay: "5 seconds" }, batches: L_BATCHES };
}

export function lrInputs(): FileInput[] {
  return [
    lInput(),
    {
      name: "r",
      schema: "rk STRING, rt TIMESTAMP",
      watermark: { column: "rt", delay: "5 seconds" },
      batches: [
        [
          { rk: "n", rt: null },
          { rk: "a", rt: t(2) },
        ],
        [{ rk: "b", rt: t(31) }],
        [{ rk: "c", rt: t(91) }],
      ],
    },
  ];
}
