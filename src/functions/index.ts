/**
 * Loads every function family into the registry. Import this module (not the families) to
 * make sure all functions are registered.
 */
import "./arithmetic.js";
import "./predicates.js";
import "./strings.js";
import "./strings-extra.js";
import "./strings-regex.js";
import "./strings-format.js";
import "./strings-more.js";
import "./math.js";
import "./nan-functions.js";
import "./array-more.js";
import "./charset-coding.js";
import "./murmur3-hash.js";
import "./trig-functions.js";
import "./math-more.js";
import "./try-arithmetic.js";
import "./null-functions.js";
import "./moment-aggregates.js";
import "./covariance-aggregates.js";
import "./percentile.js";
import "./collections.js";
import "./datetime.js";
import "./date-calendar.js";
import "./date-parts.js";
import "./array-functions.js";
import "./array-sets.js";
import "./array-shape.js";
import "./json-path.js";
import "./aggregates.js";
import "./bool-aggregates.js";
import "./extremum-by.js";
import "./windows.js";
import "./window-functions.js";
import "./grouping.js";
import "./json.js";
import "./csv.js";
import "./generators.js";
import "./json-tuple.js";
import "./stack.js";
import "./higher-order.js";
import "./higher-order-maps.js";
import "./bitwise.js";
import "./strings-misc.js";
import "./date-names.js";
import "./session-info.js";
import "./width-bucket.js";
import "./map-more.js";
import "./json-more.js";
import "./array-insert.js";
import "./aliases.js";

export { canCast, castValue, castVector, valueToString } from "./cast.js";
export { generatorOf, isGeneratorCall } from "./generators.js";
export { compareValues } from "./predicates.js";
export * from "./registry.js";
