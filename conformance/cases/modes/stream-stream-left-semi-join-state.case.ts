import { defineCase, t } from "../../case.js";
import { impClkInputs, impClkJoin } from "../impressions-clicks.js";

export default defineCase({
  description:
    "Left semi stream-stream join state: a left row that matches on arrival is not stored; a stored left row matched by a later right row is emitted once; numRowsTotal / numRowsUpdated / numRowsRemoved per batch as Spark.",
  inputs: impClkInputs(
    [
      [
        { ad: 1, it: t(0) },
        { ad: 2, it: t(1) },
        { ad: 7, it: t(2) },
      ],
      [
        { ad: 3, it: t(20) },
        { ad: 2, it: t(21) },
      ],
      [{ ad: 4, it: t(40) }],
      [{ ad: 5, it: t(60) }],
    ],
    [
      [{ cad: 2, ct: t(3) }],
      [
        { cad: 1, ct: t(4) },
        { cad: 2, ct: t(22) },
        { cad: 2, ct: t(23) },
      ],
      [{ cad: 3, ct: t(25) }],
      [{ cad: 9, ct: t(61) }],
    ],
  ),
  outputMode: "append",
  ...impClkJoin("left_semi"),
});
