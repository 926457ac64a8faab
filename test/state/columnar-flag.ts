/**
 * Imported first by the `columnar-*.test.ts` files that re-run other suites (not a test file
 * itself): makes `arus.state.aggregation.columnar` default to "true" for every session of this
 * test process, so the suites' queries plan the columnar backend of `StreamingAggregateExec` without changing them.
 */
import { DEFAULTS } from "../../src/common/conf.js";

(DEFAULTS as Record<string, string>)["arus.state.aggregation.columnar"] = "true";
