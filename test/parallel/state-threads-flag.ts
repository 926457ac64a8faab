/**
 * Imported first by the suites that re-run other suites on state threads (not a test file
 * itself): makes `arus.state.threads` default to 2 for every session of this test process, so
 * each columnar aggregation keeps its state partitions on two worker threads.
 */
import { DEFAULTS } from "../../src/common/conf.js";

(DEFAULTS as Record<string, string>)["arus.state.threads"] = "2";
