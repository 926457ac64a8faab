import { defineCase, t } from "../../case.js";
import { impClkInputs, impClkJoin } from "../impressions-clicks.js";

export default defineCase({
  description:
    "Stream-stream full outer join, right row first: a click stored in batch 0 that a later impression matches is flagged matched, so its eviction emits no NULL row for it; only the never-matched click does.",
  inputs: impClkInputs(
    // imp(ad, it)
    [[], [{ ad: 1, it: t(2) }], [{ ad: 9, it: t(60) }]],
    // clk(cad, ct)
    [
      [
        { cad: 1, ct: t(5) },
        { cad: 2, ct: t(6) },
      ],
      [],
      [{ cad: 9, ct: t(61) }],
    ],
  ),
  outputMode: "append",
  ...impClkJoin("full_outer"),
});
