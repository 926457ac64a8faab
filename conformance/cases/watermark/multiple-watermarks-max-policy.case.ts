import { defineCase } from "../../case.js";
import { fastSlowUnion } from "../fast-slow-union.js";

export default defineCase({
  description:
    "Same union with spark.sql.streaming.multipleWatermarkPolicy=max: the faster stream drives the watermark and the slow stream's rows become late.",
  ...fastSlowUnion(),
  confs: { "spark.sql.streaming.multipleWatermarkPolicy": "max" },
});
