import { defineCase, t } from "../../case.js";
import { impClkInputs, impClkJoin } from "../impressions-clicks.js";

export default defineCase({
  description:
    "Stream-stream inner join on key with an event-time range condition and watermarks on both sides, append mode: matches across batches are found from state; state is cleaned as the watermark passes.",
  inputs: impClkInputs(
    // imp(ad, it)
    [
      [
        { ad: 1, it: t(0) },
        { ad: 2, it: t(1) },
      ],
      [{ ad: 3, it: t(20) }],
      [],
      [{ ad: 4, it: t(60) }],
    ],
    // clk(cad, ct)
    [
      [{ cad: 1, ct: t(2) }],
      [{ cad: 2, ct: t(8) }],
      [
        { cad: 3, ct: t(21) },
        { cad: 1, ct: t(30) },
      ],
      [{ cad: 4, ct: t(61) }],
    ],
  ),
  outputMode: "append",
  ...impClkJoin(),
});
