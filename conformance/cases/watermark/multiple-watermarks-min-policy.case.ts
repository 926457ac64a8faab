import { defineCase } from "../../case.js";
import { fastSlowUnion } from "../fast-slow-union.js";

export default defineCase({
  description:
    "Union of two watermarked streams: the global watermark is the min of the two (default policy); each trigger reads one file from each input.",
  ...fastSlowUnion(),
});
